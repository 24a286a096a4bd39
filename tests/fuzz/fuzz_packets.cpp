// libFuzzer target over packet and fragment decoding: parse_packet, the
// reassembler, and a started Transport receiving the bytes. Nothing may crash;
// a packet that parses must serialise and parse back to the same packet.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "dereth/net/packet.hpp"
#include "dereth/net/reassembler.hpp"
#include "dereth/net/transport.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  auto p = dereth::net::parse_packet(bytes);
  if (!p) {
    if (p.error().message().empty()) std::abort();
  } else {
    // Serialise with the same checksum kind, parse, serialise again: the
    // bytes must agree (compared as bytes, so NaN optional-header values count
    // as equal to themselves).
    const bool encrypted = (p->header.flags & dereth::net::packet_flag::EncryptedChecksum) != 0;
    const auto key = encrypted ? std::optional<std::uint32_t>(dereth::net::recover_key(*p)) : std::nullopt;
    auto copy = *p;
    const auto first = dereth::net::serialize_packet(copy, key);
    auto again = dereth::net::parse_packet(first);
    if (!again || again->fragments != p->fragments) std::abort();
    auto copy2 = *again;
    if (dereth::net::serialize_packet(copy2, key) != first) std::abort();
    dereth::net::Reassembler r(8, 64, 64);
    for (const auto& f : p->fragments) (void)r.add(f);
  }
  // A transport receiving the same bytes (checksums will mostly fail; the parse and bounds must hold).
  static dereth::net::Transport transport = [] {
    dereth::net::Transport t(dereth::net::Role::Client);
    t.start(1, 2, 7, 1, 0.0);
    return t;
  }();
  transport.receive(bytes, 1.0);
  while (transport.poll_message()) {
  }
  (void)transport.take_outgoing();
  return 0;
}
