#include "dereth/net/packet.hpp"

#include <catch2/catch.hpp>

#include "dereth/net/checksum.hpp"

#include "support/hex.hpp"
#include "support/pcap_messages.hpp"

using namespace dereth::net;
using dereth::core::ErrorKind;
using dereth::test::from_hex;

TEST_CASE("Captured S2C pure ACK: header hash and checksum (spec 2.7)", "[net][packet]") {
  const auto bytes = from_hex("6b080000 00400000 92bb04b2 0b00 0ef7 0400 0100 3b020000");
  auto p = parse_packet(bytes);
  REQUIRE(p.has_value());
  CHECK(header_hash(p->header) == 0xB200B957u);
  CHECK(p->payload_hash == 0x0004023Bu);
  CHECK(cleartext_checksum_ok(*p));
  CHECK(p->optional.ack_sequence == 0x23Bu);
  CHECK(p->fragments.empty());
  auto copy = *p;
  CHECK(serialize_packet(copy) == bytes);
}

TEST_CASE("Captured C2S pure ACK and NAK checksums (spec 2.7)", "[net][packet]") {
  const auto ack = from_hex("57020000 00400000 38bc9cbe 3200 a603 0400 0100 ce080000");
  auto a = parse_packet(ack);
  REQUIRE(a.has_value());
  CHECK(cleartext_checksum_ok(*a));
  const auto nak = from_hex("ae020000 00100000 dd8dd6be 3200 dc03 0800 0100 01000000 170a0000");
  auto n = parse_packet(nak);
  REQUIRE(n.has_value());
  CHECK(header_hash(n->header) == 0xBECE83C5u);
  CHECK(n->payload_hash == 0x00080A18u);
  CHECK(cleartext_checksum_ok(*n));
  CHECK(*n->optional.request_retransmit == std::vector<std::uint32_t>{0x0A17});
}

TEST_CASE("Captured encrypted S2C packet with two unpadded 13-byte messages (spec 2.7)", "[net][packet]") {
  const auto bytes = from_hex(
      "99080000 06000000 8b460aac 0b00 19f7 3a00 0100 | eb120000 00000080 0100 1d00 0000 0900 | e9020000 77 "
      "02000000 3c040000 | ec120000 00000080 0100 1d00 0000 0900 | e9020000 0a 04000000 c8040000");
  auto p = parse_packet(bytes);
  REQUIRE(p.has_value());
  REQUIRE(p->fragments.size() == 2);
  CHECK(p->fragments[0].data.size() == 13);
  CHECK(p->fragments[1].sequence == 0x12EC);
  CHECK(header_hash(p->header) == 0xB20B79C1u);
  CHECK(p->payload_hash == 0x008F362Cu);
  CHECK(recover_key(*p) == 0xF971FAE6u);
  CHECK_FALSE(cleartext_checksum_ok(*p));
  auto copy = *p;
  CHECK(serialize_packet(copy, 0xF971FAE6u) == bytes);
}

TEST_CASE("Computed LoginRequest, ConnectResponse and encrypted LoginComplete (spec 2.7)", "[net][packet]") {
  const auto login = from_hex(
      "00000000 00000100 5c8c2dcc 0000 0000 3000 0000 | 0400 31383032 0000 | 24000000 | 02000000 01000000 "
      "00000000 | 0400 74657374 0000 | 0000 0000 | 05000000 04 74657374 000000");
  auto l = parse_packet(login);
  REQUIRE(l.has_value());
  CHECK(cleartext_checksum_ok(*l));
  CHECK(l->optional.login_request->size() == 0x30);

  const auto connect = from_hex("00000000 00000800 b11b8a21 0000 0000 0800 0000 8877665544332211");
  auto c = parse_packet(connect);
  REQUIRE(c.has_value());
  CHECK(cleartext_checksum_ok(*c));
  CHECK(c->optional.connect_response == 0x1122334455667788u);

  Packet lc;
  lc.header.sequence = 2;
  lc.header.id = 1;
  lc.header.iteration = 1;
  lc.fragments.push_back(Fragment{1, 0x03000001, 1, 0, 3, from_hex("b1f70000 01000000 a1000000")});
  AcIsaac c2s(0x12345678);
  const auto bytes = serialize_packet(lc, c2s.next());
  CHECK(bytes == from_hex("02000000 06000000 bfc8e1b9 0100 0000 1c00 0100 | 01000000 01000003 0100 1c00 0000 "
                          "0300 | b1f70000 01000000 a1000000"));
}

TEST_CASE("Every cleartext packet of the real capture passes its checksum", "[net][packet][capture]") {
  // 34 unencrypted packets in example.pcap (spec 0.2): 25 S2C ack-only, 8 C2S ack-only, 1 C2S NAK.
  auto capture = dereth::test::read_capture(dereth::test::shared_path("captures/example.pcap"));
  REQUIRE(capture.has_value());
  int cleartext = 0, parsed = 0;
  for (const auto& d : capture->raw_datagrams) {
    auto p = parse_packet(d.bytes);
    REQUIRE(p.has_value());
    ++parsed;
    if (!(p->header.flags & packet_flag::EncryptedChecksum)) {
      CHECK(cleartext_checksum_ok(*p));
      ++cleartext;
    }
  }
  CHECK(parsed == 632);
  CHECK(cleartext == 34);
}

TEST_CASE("Malformed datagrams are errors, never crashes", "[net][packet][malformed]") {
  const auto good = from_hex(
      "99080000 06000000 8b460aac 0b00 19f7 3a00 0100 | eb120000 00000080 0100 1d00 0000 0900 | e9020000 77 "
      "02000000 3c040000 | ec120000 00000080 0100 1d00 0000 0900 | e9020000 0a 04000000 c8040000");
  for (std::size_t n = 0; n < good.size(); ++n) {
    CHECK_FALSE(parse_packet(std::span<const std::uint8_t>(good.data(), n)).has_value());
  }
  SECTION("fragment index >= count") {
    auto bad = good;
    bad[20 + 12] = 1;  // index 1 of count 1
    auto p = parse_packet(bad);
    REQUIRE_FALSE(p.has_value());
    CHECK(p.error().field == "fragment.index");
  }
  SECTION("fragment count 0") {
    auto bad = good;
    bad[20 + 8] = 0;
    CHECK(parse_packet(bad).error().field == "fragment.index");
  }
  SECTION("fragment size below 16 and beyond the packet") {
    auto bad = good;
    bad[20 + 10] = 8;
    CHECK(parse_packet(bad).error().field == "fragment.size");
    bad[20 + 10] = 0xF0;
    bad[20 + 11] = 0x01;
    CHECK_FALSE(parse_packet(bad).has_value());
  }
  SECTION("header size disagreeing with the datagram") {
    auto bad = good;
    bad[16] = 0x3B;
    CHECK(parse_packet(bad).error().field == "header.size");
  }
  SECTION("unknown flag bits") {
    auto bad = good;
    bad[7] = 0x80;
    CHECK(parse_packet(bad).error().field == "header.flags");
  }
  SECTION("an absurd retransmit count") {
    auto nak = from_hex("ae020000 00100000 dd8dd6be 3200 dc03 0800 0100 ffffff7f 170a0000");
    auto p = parse_packet(nak);
    REQUIRE_FALSE(p.has_value());
    CHECK(p.error().kind == ErrorKind::TooLarge);
  }
}
