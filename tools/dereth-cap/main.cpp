// dereth-cap: read an Asheron's Call capture (pcap or pcapng), reassemble its
// messages and print them as JSON lines, then one summary line.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "dereth/core/json_writer.hpp"
#include "dereth/core/version.hpp"
#include "dereth/net/capture_reader.hpp"
#include "dereth/protocol/json.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"

#include "../parse_error.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "Read an Asheron's Call capture (pcap or pcapng: Ethernet, Linux cooked, loopback or raw IP), reassemble\n"
      "both directions into messages and decode every message dereth decodes anywhere (the object, physics and\n"
      "effect messages, login, chat, the movement and combat game actions and events, the PlayerDescription);\n"
      "with --json each message is one line, its fields under \"fields\", or \"undecoded\": true for one dereth\n"
      "does not read (with its event_type or action_type when it is a game event or action).\n"
      "Always ends with one line:\n"
      "  summary: packets=P fragments=F messages_s2c=S messages_c2s=C framing_errors=E decode_errors=D\n"
      "where decode_errors counts messages of a decoded opcode that failed to decode.\n"
      "AC traffic is found by the protocol on whatever ports (a LoginRequest names the client and the server;\n"
      "a capture without a handshake falls back to ACE's ports 9000-10013); --port N narrows it to N and N+1.\n"
      "Exit status: 0 when the capture was read (damaged packets are counted, not fatal); 1 when the file\n"
      "cannot be read, is not a capture, holds no AC traffic, or is cut short (without --allow-truncated);\n"
      "2 for bad arguments.",
      "dereth-cap"};
  std::string path;
  bool json = false;
  bool summary_only = false;
  std::optional<std::uint16_t> port;
  bool allow_truncated = false;
  app.add_option("FILE", path, "The capture file")->required()->type_name("FILE");
  app.add_flag("--json", json, "Print one JSON line per message");
  app.add_flag("--summary", summary_only, "Print only the summary line (the default without --json)");
  app.add_option("--port", port, "Only traffic to or from server ports N and N+1")
      ->check(CLI::Range(1, 65534))
      ->type_name("N");
  app.add_flag("--allow-truncated", allow_truncated, "Read a damaged capture up to the damage");
  app.set_version_flag("--version", std::string("dereth-cap ") + std::string(dereth::core::version()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return dereth::tools::parse_error(app, e, argc, argv, "dereth-cap");
  }
  const auto filter = port ? dereth::net::CaptureFilter::port(*port) : dereth::net::CaptureFilter{};
  auto check = dereth::net::admit_capture(path, filter, allow_truncated);
  if (!check) {
    std::cerr << "dereth-cap: " << check.error().message() << "\n";
    return 1;
  }
  auto replay = dereth::net::CaptureReplay::open(path, filter);
  if (!replay) {
    std::cerr << "dereth-cap: " << replay.error().message() << "\n";
    return 1;
  }
  std::uint64_t decode_errors = 0;
  const bool print = json && !summary_only;
  while (auto m = replay->next_message()) {
    const std::uint32_t op = dereth::protocol::peek_opcode(m->bytes);
    dereth::core::JsonWriter j;
    if (print) {
      j.begin_object();
      j.key("time").f64(m->time);
      j.key("direction").string(m->server_to_client ? "s2c" : "c2s");
      j.key("opcode").hex(op);
      j.key("name").string(dereth::protocol::opcode_name(op));
      j.key("size").number(static_cast<std::uint64_t>(m->bytes.size()));
    }
    // Every message dereth decodes anywhere, either direction, through its own decoder.
    dereth::core::JsonWriter fields;
    auto decoded = dereth::protocol::write_any_json(fields, m->bytes);
    if (!decoded) {
      ++decode_errors;
      if (print) j.key("decode_error").string(decoded.error().message());
    } else if (print && *decoded) {
      // The fields object is complete JSON already: close the record around it.
      std::cout << j.str() << ",\"fields\":" << fields.str() << "}\n";
      continue;
    } else if (print) {
      const std::uint32_t type = dereth::protocol::peek_wrapped_type(m->bytes);
      if (op == dereth::protocol::opcode::GameEvent) j.key("event_type").hex(type);
      if (op == dereth::protocol::opcode::GameAction) j.key("action_type").hex(type);
      j.key("undecoded").boolean(true);
    }
    if (print) {
      j.end_object();
      std::cout << j.str() << '\n';
    }
  }
  const auto& s = replay->stats();
  std::cerr << "dereth-cap: " << replay->checksum_note() << "\n";
  if (s.unreadable_frames > 0) {
    std::cerr << "dereth-cap: " << s.unreadable_frames << " records had broken IP/UDP framing\n";
  }
  if (check->damage) std::cerr << "dereth-cap: " << check->damage_summary() << "\n";
  std::cout << fmt::format(
      "summary: packets={} fragments={} messages_s2c={} messages_c2s={} framing_errors={} "
      "decode_errors={}\n",
      s.packets, s.fragments, s.messages_s2c, s.messages_c2s, s.framing_errors, decode_errors);
  return 0;
}
