// Every server-to-client message of a decoded opcode in the real capture
// (../shared/captures/example.pcap) decodes, consumes exactly its bytes, and
// re-encodes to the same bytes.
#include <catch2/catch.hpp>

#include <map>

#include "dereth/protocol/json.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"

#include "support/hex.hpp"
#include "support/pcap_messages.hpp"

using namespace dereth::protocol;

namespace {

const dereth::test::CaptureContents& capture() {
  static const auto contents = [] {
    const auto path = dereth::test::shared_path("captures/example.pcap");
    auto c = dereth::test::read_capture(path);
    if (!c) FAIL("cannot read " << path << ": " << c.error().message());
    return *c;
  }();
  return contents;
}

}  // namespace

TEST_CASE("Capture: every decoded-opcode message decodes exactly and re-encodes byte for byte", "[protocol][capture]") {
  std::map<std::uint32_t, int> decoded;
  int unknown = 0;
  int inbound = 0;
  std::map<std::size_t, int> by_kind;
  constexpr int kInbound = 1056;  // chat lines, game events and private updates of the table's rows
  for (const auto& msg : capture().messages) {
    if (!msg.server_to_client) continue;
    auto m = decode_message(msg.bytes);
    INFO("opcode 0x" << std::hex << msg.opcode() << " fragment sequence " << std::dec << msg.fragment_sequence
                     << " bytes " << dereth::test::to_hex(msg.bytes));
    if (is_object_opcode(msg.opcode())) {
      REQUIRE(m.has_value());
      CHECK(opcode_of(*m) == msg.opcode());
      CHECK(encode(*m) == msg.bytes);
      CHECK_FALSE(to_json(*m).empty());
      ++decoded[msg.opcode()];
    } else {
      // The game events and chat the table names decode (never to an
      // object message); the rest stays whole.
      REQUIRE(m.has_value());
      CHECK_FALSE(is_object_message(*m));
      if (std::holds_alternative<Unknown>(*m)) {
        ++unknown;
      } else {
        CHECK(opcode_of(*m) == msg.opcode());
        ++inbound;
        ++by_kind[m->index()];
        // The player's-state messages re-encode byte for byte from what was kept.
        const std::uint32_t target = peek_game_event_guid(msg.bytes).value_or(0);
        const std::uint32_t sequence =
            msg.bytes.size() >= 12 ? std::uint32_t{msg.bytes[8]} | (std::uint32_t{msg.bytes[9]} << 8) |
                                         (std::uint32_t{msg.bytes[10]} << 16) | (std::uint32_t{msg.bytes[11]} << 24)
                                   : 0;
        if (const auto* level = std::get_if<PrivateUpdateStatLevel>(&*m)) CHECK(encode(*level) == msg.bytes);
        if (const auto* update = std::get_if<MagicUpdateEnchantments>(&*m)) {
          CHECK(encode(*update, target, sequence) == msg.bytes);
        }
        if (const auto* remove = std::get_if<MagicRemoveEnchantments>(&*m)) {
          CHECK(encode(*remove, target, sequence) == msg.bytes);
        }
      }
    }
  }
  CHECK(inbound == kInbound);
  // The real session's private vital and int updates (0x02E9, 0x02CD) and enchantment
  // events (0x02C2 / 0x02C4, 0x02C3 / 0x02C5) all decode exactly.
  const auto count = [&](auto alternative) {
    const Message probe{alternative};
    return by_kind[probe.index()];
  };
  CHECK(count(PrivateUpdateStatLevel{}) == 107);  // 76 vitals (0x02E9) and 31 ints (0x02CD)
  CHECK(count(MagicUpdateEnchantments{}) == 313);
  CHECK(count(MagicRemoveEnchantments{}) == 323);
  CHECK(count(ChatMessage{}) == 313);
  // spec/protocol.md 6.2 and captures/PROVENANCE.md.
  CHECK(decoded[opcode::PlayScriptType] == 515);
  CHECK(decoded[opcode::ObjDescEvent] == 60);
  CHECK(decoded[opcode::Sound] == 60);
  CHECK(decoded[opcode::PickupEvent] == 30);
  CHECK(decoded[opcode::Movement] == 12);
  CHECK(decoded[opcode::CreateObject] == 0);  // the capture has no F745
  int total = unknown + inbound;
  for (const auto& [op, n] : decoded) total += n;
  CHECK(total == 1985);
}

TEST_CASE("Capture: truncating each real effect and motion message fails cleanly", "[protocol][capture][malformed]") {
  std::map<std::uint32_t, int> tried;
  for (const auto& msg : capture().messages) {
    if (!msg.server_to_client || !is_object_opcode(msg.opcode())) continue;
    if (tried[msg.opcode()]++ >= 3) continue;  // three of each opcode, every cut point
    for (std::size_t n = 0; n < msg.bytes.size(); ++n) {
      auto m = decode_message(std::span<const std::uint8_t>(msg.bytes.data(), n));
      INFO("opcode 0x" << std::hex << msg.opcode() << " cut at " << std::dec << n);
      REQUIRE_FALSE(m.has_value());
    }
  }
  CHECK(tried.size() == 5);
}
