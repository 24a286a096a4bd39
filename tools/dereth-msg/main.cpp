// dereth-msg: decode one message body (opcode first) and print it as JSON.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "dereth/core/version.hpp"
#include "dereth/protocol/json.hpp"
#include "dereth/protocol/messages.hpp"

#include "../parse_error.hpp"

namespace {

// Parses hex text: pairs of hex digits; whitespace, '|', ':' and ',' are ignored.
bool parse_hex(const std::string& text, std::vector<std::uint8_t>& out, std::string& why) {
  int high = -1;
  std::size_t index = 0;
  for (const char c : text) {
    ++index;
    int v = -1;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '|' || c == ':' || c == ',')
      continue;
    else {
      why = "character " + std::to_string(index) + " ('" + std::string(1, c) + "') is not a hex digit";
      return false;
    }
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<std::uint8_t>((high << 4) | v));
      high = -1;
    }
  }
  if (high >= 0) {
    why = "odd number of hex digits";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Decode one Asheron's Call message body (opcode first) and print it as one JSON object: every message\n"
      "dereth decodes anywhere (the object messages, login, chat, movement and combat, the PlayerDescription).\n"
      "Exit status: 0 when the whole body decoded (or the opcode is one dereth does not decode:\n"
      "its opcode and size are printed); 1 when it failed to decode (the error is on stderr) or FILE is a\n"
      "capture (pcap or pcapng: dereth-cap reads those);\n"
      "2 for bad arguments or an unreadable file.",
      "dereth-msg"};
  std::string path;
  bool hex = false;
  app.add_option("FILE", path, "Message body: binary, or hex text with --hex ('-' reads stdin)")->required();
  app.add_flag("--hex", hex, "FILE holds hex text (whitespace, '|' and ':' ignored)");
  app.set_version_flag("--version", std::string("dereth-msg ") + std::string(dereth::core::version()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return dereth::tools::parse_error(app, e, argc, argv, "dereth-msg");
  }

  std::vector<char> raw;
  if (path == "-") {
    raw.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "dereth-msg: cannot open " << path << "\n";
      return 2;
    }
    raw.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  // A whole capture is not one message body: say which tool reads it.
  if (!hex && raw.size() >= 4) {
    const auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(raw[i])); };
    const std::uint32_t magic = b(0) | (b(1) << 8) | (b(2) << 16) | (b(3) << 24);
    if (magic == 0xA1B2C3D4u || magic == 0xD4C3B2A1u || magic == 0xA1B23C4Du || magic == 0x4D3CB2A1u ||
        magic == 0x0A0D0D0Au) {
      std::cerr << "dereth-msg: " << path << " is a capture (pcap or pcapng), not one message body: read it with "
                << "dereth-cap " << path << " --json\n";
      return 1;
    }
  }

  std::vector<std::uint8_t> body;
  if (hex) {
    std::string why;
    if (!parse_hex(std::string(raw.begin(), raw.end()), body, why)) {
      std::cerr << "dereth-msg: " << path << ": not hex text: " << why << "\n";
      return 2;
    }
  } else {
    body.assign(raw.begin(), raw.end());
  }

  // Every message dereth decodes anywhere (as dereth-cap --json writes it).
  dereth::core::JsonWriter j;
  auto written = dereth::protocol::write_any_json(j, body);
  if (!written) {
    std::cerr << "dereth-msg: " << written.error().message() << "\n";
    return 1;
  }
  if (*written) {
    std::cout << j.str() << "\n";
    return 0;
  }
  auto message = dereth::protocol::decode_message(body);
  if (!message) {
    std::cerr << "dereth-msg: " << message.error().message() << "\n";
    return 1;
  }
  std::cout << dereth::protocol::to_json(*message) << "\n";
  return 0;
}
