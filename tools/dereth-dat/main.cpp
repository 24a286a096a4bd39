// dereth-dat: list, dump, extract and verify DAT files; write the demo world.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "dereth/core/file.hpp"
#include "dereth/core/version.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/records.hpp"
#include "dereth/demo/demo_world.hpp"

using namespace dereth;

namespace {

core::Result<dat::DatFile> open_file(const std::string& path) {
  auto f = dat::DatFile::open(path);
  if (!f) std::cerr << "dereth-dat: " << f.error().message() << "\n";
  return f;
}

std::optional<dat::Did> parse_id(const std::string& text) {
  try {
    std::size_t used = 0;
    const unsigned long v = std::stoul(text, &used, 0);
    if (used != text.size() || v > 0xFFFFFFFFUL) return std::nullopt;
    return static_cast<dat::Did>(v);
  } catch (...) {
    return std::nullopt;
  }
}

dat::DatKind kind_of(const dat::DatFile& f) {
  return f.kind().value_or(dat::DatKind::Portal);
}

int list(const std::string& path) {
  auto f = open_file(path);
  if (!f) return 1;
  auto entries = f->entries();
  if (!entries) {
    std::cerr << "dereth-dat: " << entries.error().message() << "\n";
    return 1;
  }
  for (const auto& e : *entries) {
    std::cout << fmt::format("0x{:08X} {:<20} {:>9}{}\n", e.id, dat::db_type_name(dat::db_type_of(e.id, kind_of(*f))),
                             e.size, e.compressed() ? " compressed" : "");
  }
  std::cerr << fmt::format("dereth-dat: {} entries\n", entries->size());
  return 0;
}

int dump(const std::string& path, const std::string& id_text) {
  const auto id = parse_id(id_text);
  if (!id) {
    std::cerr << "dereth-dat: \"" << id_text << "\" is not an id (write it like 0x01000042)\n";
    return 2;
  }
  auto f = open_file(path);
  if (!f) return 1;
  auto found = f->find(*id);
  if (!found) {
    std::cerr << "dereth-dat: " << found.error().message() << "\n";
    return 1;
  }
  if (!*found) {
    std::cerr << fmt::format("dereth-dat: {} has no entry 0x{:08X}\n", path, *id);
    return 1;
  }
  auto bytes = f->read(**found);
  if (!bytes) {
    std::cerr << "dereth-dat: " << bytes.error().message() << "\n";
    return 1;
  }
  auto json = dat::record_json(*id, dat::db_type_of(*id, kind_of(*f)), *bytes);
  if (!json) {
    std::cerr << "dereth-dat: " << json.error().message() << "\n";
    return 1;
  }
  std::cout << *json << "\n";
  return 0;
}

int extract(const std::string& path, const std::string& id_text, const std::string& out) {
  const auto id = parse_id(id_text);
  if (!id) {
    std::cerr << "dereth-dat: \"" << id_text << "\" is not an id\n";
    return 2;
  }
  auto f = open_file(path);
  if (!f) return 1;
  auto bytes = f->read(*id);
  if (!bytes) {
    std::cerr << "dereth-dat: " << bytes.error().message() << "\n";
    return 1;
  }
  if (auto w = dereth::core::write_file_atomic(out, *bytes); !w) {
    std::cerr << "dereth-dat: " << w.error().message() << "\n";
    return 1;
  }
  std::cerr << fmt::format("dereth-dat: wrote {} bytes to {}\n", bytes->size(), out);
  return 0;
}

int verify(const std::string& path, bool quiet) {
  auto f = open_file(path);
  if (!f) return 1;
  auto entries = f->entries();
  if (!entries) {
    std::cerr << "dereth-dat: " << entries.error().message() << "\n";
    return 1;
  }
  const bool progress = !quiet && isatty(STDERR_FILENO) != 0 && entries->size() > 1000;
  std::size_t ok = 0, failed = 0, skipped = 0, done = 0;
  for (const auto& e : *entries) {
    ++done;
    if (progress && (done % 500 == 0 || done == entries->size())) {
      const auto width = static_cast<std::size_t>(40 * done / entries->size());
      std::cerr << fmt::format("\r[{:<40}] {}/{}", std::string(width, '#'), done, entries->size()) << std::flush;
    }
    const auto type = dat::db_type_of(e.id, kind_of(*f));
    if (!dat::has_record_reader(type)) {
      ++skipped;
      continue;
    }
    auto bytes = f->read(e);
    auto decoded = bytes ? dat::decode_record(e.id, type, *bytes) : core::Result<void>(std::unexpected(bytes.error()));
    if (decoded) {
      ++ok;
    } else {
      ++failed;
      if (progress) std::cerr << "\n";
      std::cout << "FAIL " << decoded.error().message() << "\n";
    }
  }
  if (progress) std::cerr << "\n";
  std::cout << fmt::format("verify: entries={} decoded={} failed={} no_reader={}\n", entries->size(), ok, failed,
                           skipped);
  return failed == 0 ? 0 : 1;
}

int make_demo(const std::string& folder, bool quiet) {
  if (auto r = demo::write_demo_world(folder); !r) {
    std::cerr << "dereth-dat: " << r.error().message() << "\n";
    return 1;
  }
  if (!quiet) std::cerr << "dereth-dat: wrote client_portal.dat and client_cell_1.dat to " << folder << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Read, check and write Asheron's Call DAT files (client_portal.dat, client_cell_1.dat, ...).\n"
      "Exit status: 0 on success; 1 when a file cannot be read, is not a DAT, an entry is absent or does\n"
      "not decode (verify: any entry), or the output cannot be written; 2 for bad arguments.",
      "dereth-dat"};
  app.set_version_flag("--version", std::string("dereth-dat ") + std::string(core::version()));
  app.require_subcommand(1);
  std::string file, id, out, folder;
  bool quiet = false;
  auto* list_cmd = app.add_subcommand("list", "List every entry: id, type, size");
  list_cmd->add_option("FILE", file, "A DAT file")->required();
  auto* dump_cmd = app.add_subcommand("dump", "Print one record as JSON (exit 1 if absent or undecodable)");
  dump_cmd->add_option("FILE", file, "A DAT file")->required();
  dump_cmd->add_option("ID", id, "The record id, e.g. 0x01000042")->required();
  auto* extract_cmd = app.add_subcommand("extract", "Write one record's bytes to a file");
  extract_cmd->add_option("FILE", file, "A DAT file")->required();
  extract_cmd->add_option("ID", id, "The record id")->required();
  extract_cmd->add_option("OUT", out, "Where to write the bytes")->required();
  auto* verify_cmd = app.add_subcommand("verify", "Decode every entry; exit 0 only if all decode");
  verify_cmd->add_option("FILE", file, "A DAT file")->required();
  verify_cmd->add_flag("--quiet", quiet, "No progress bar");
  auto* demo_cmd = app.add_subcommand("make-demo", "Write the synthetic demo world into DIR");
  demo_cmd->add_option("DIR", folder, "The folder to write into")->required();
  demo_cmd->add_flag("--quiet", quiet, "Say nothing on success");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (*list_cmd) return list(file);
  if (*dump_cmd) return dump(file, id);
  if (*extract_cmd) return extract(file, id, out);
  if (*verify_cmd) return verify(file, quiet);
  if (*demo_cmd) return make_demo(folder, quiet);
  return 2;
}
