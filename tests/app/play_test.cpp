// `dereth play` against the scenario server: world entry exits 0; every
// failure is one sentence on stderr and a non-zero exit, never a hang.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dereth/app/cli.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "run_cli.hpp"
#include "served_support.hpp"
#include "support/temp_dir.hpp"

namespace {

using dereth::app::test::run;

// A UDP port that takes datagrams and never answers (a server that hangs).
struct SilentServer {
  int fd = -1;
  std::uint16_t port = 0;
  SilentServer() {
    fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0) {
      socklen_t len = sizeof(a);
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
      port = ntohs(a.sin_port);
    }
  }
  ~SilentServer() {
    if (fd >= 0) ::close(fd);
  }
  SilentServer(const SilentServer&) = delete;
  SilentServer& operator=(const SilentServer&) = delete;
};

// Password files in a folder of the test's own, removed when the test ends.
struct PasswordFiles {
  dereth::test::TempDir dir{"play-passwords"};
  std::string make(const std::string& password) const {
    const auto p = dir / ("pw-" + password);
    std::ofstream(p) << password << "\n";
    return p.string();
  }
};

using dereth::app::test::Served;

constexpr const char* kBasic = "/tests/scenario/data/basic.scenario";

}  // namespace

TEST_CASE("dereth play: world entry, wrong password, no answer, bad arguments", "[app][e2e]") {
  Served served(kBasic);
  const std::string& where = served.where;
  std::string out, err;
  const PasswordFiles passwords;
  const auto password_file = [&passwords](const std::string& p) { return passwords.make(p); };

  // Headless for 30 ticks in the world, recording into a folder of our own.
  const dereth::test::TempDir recordings_tmp("play-recordings");
  const auto recordings = recordings_tmp / "recordings";
  CHECK(run({"dereth", "play", "--server", where, "--account", "tester", "--password-file", password_file("secret"),
             "--headless", "--ticks", "30", "--record", recordings.string()},
            out, err) == 0);
  CHECK(out.find("in the world on " + where) != std::string::npos);
  CHECK(out.find("recording this session to " + recordings.string()) != std::string::npos);
  CHECK(out.find("play: messages=") != std::string::npos);
  CHECK(out.find(" ticks=30 ") != std::string::npos);
  std::size_t pcaps = 0;
  for (const auto& entry : std::filesystem::directory_iterator(recordings)) {
    if (entry.path().extension() == ".pcap" && entry.file_size() > 24) ++pcaps;  // more than the header
  }
  CHECK(pcaps == 1);

  // Headless with no --ticks: said before logging in, not after entering.
  CHECK(run({"dereth", "play", "--server", where, "--account", "tester", "--password-file", password_file("secret"),
             "--headless", "--no-record"},
            out, err) == 0);
  const auto said = out.find("no window and no --ticks");
  REQUIRE(said != std::string::npos);
  CHECK(said < out.find("in the world on " + where));

  CHECK(run({"dereth", "play", "--server", where, "--account", "tester", "--password-file", password_file("wrong"),
             "--headless", "--no-record"},
            out, err) == 1);
  CHECK(err == "dereth: the account name or password was not accepted\n");

  CHECK(run({"dereth", "play", "--server", where, "--account", "tester", "--password-file", password_file("secret"),
             "--character", "Nobody", "--headless", "--no-record"},
            out, err) == 1);
  CHECK(err == "dereth: the account has no character named \"Nobody\"\n");

  // A server that takes the LoginRequest and never answers: no hang, a
  // sentence and exit 1 when the wait for the world runs out.
  const SilentServer silent;
  const std::string silent_at = "127.0.0.1:" + std::to_string(silent.port);
  CHECK(run({"dereth", "play", "--server", silent_at, "--account", "a", "--password-file", password_file("x"),
             "--timeout", "1", "--headless", "--no-record"},
            out, err) == 1);
  CHECK(err.find("did not reach the world on " + silent_at + " within 1 s (state: logging in)") != std::string::npos);

  // Nothing listens on port 9: the system says so (ICMP port unreachable) at once.
  const auto start = std::chrono::steady_clock::now();
  CHECK(run({"dereth", "play", "--server", "127.0.0.1:9", "--account", "a", "--password-file", password_file("x"),
             "--headless", "--no-record"},
            out, err) == 1);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
  CHECK(err ==
        "dereth: nothing answers on 127.0.0.1:9 (the system reports the port unreachable); is the server "
        "running?\n");

  CHECK(run({"dereth", "play", "--server", ":9000", "--account", "a"}, out, err) == 2);
  CHECK(err == "dereth: --server :9000: names no host (give HOST:PORT, e.g. 127.0.0.1:9000 or [::1]:9000)\n");
  CHECK(run({"dereth", "play", "--server", "::1:9000", "--account", "a"}, out, err) == 2);
  CHECK(err.find("an IPv6 address goes in brackets") != std::string::npos);
  CHECK(run({"dereth", "play", "--server", "127.0.0.1:65535", "--account", "a"}, out, err) == 2);
  CHECK(err == "dereth: --server 127.0.0.1:65535: \"65535\" is not a port (1-65534)\n");
  CHECK(run({"dereth", "play", "--account", "a"}, out, err) == 2);
}

TEST_CASE("dereth play logs in to a server that sends everything from its first port, as GDLE does", "[app][e2e]") {
  dereth::scenario::UdpServerOptions options;
  options.single_port = true;
  Served served(kBasic, options);
  const std::string& where = served.where;
  const PasswordFiles passwords;
  std::string out, err;
  CHECK(run({"dereth", "play", "--server", where, "--account", "tester", "--password-file", passwords.make("secret"),
             "--headless", "--ticks", "15", "--no-record", "--timeout", "10"},
            out, err) == 0);
  INFO(err);
  CHECK(out.find("in the world on " + where) != std::string::npos);
  CHECK(out.find(" ticks=15 ") != std::string::npos);
}

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
std::string field(const std::string& out, const std::string& key) {
  const auto at = out.find(" " + key + "=");
  if (at == std::string::npos) return {};
  const auto from = at + key.size() + 2;
  return out.substr(from, out.find(' ', from) - from);
}
}  // namespace

TEST_CASE("dereth play: a server that never answers is one sentence and exit 1 within 10 s", "[app][e2e][live]") {
  const PasswordFiles passwords;
  const SilentServer silent;
  REQUIRE(silent.port != 0);
  const std::string where = "127.0.0.1:" + std::to_string(silent.port);
  std::string out, err;
  const auto start = std::chrono::steady_clock::now();
  CHECK(run({"dereth", "play", "--server", where, "--account", "a", "--password-file", passwords.make("x"),
             "--headless", "--no-record", "--ticks", "30"},
            out, err) == 1);
  const double took = seconds_since(start);
  CHECK(took < 10.0);
  CHECK(took >= 7.5);  // it did resend and wait (every 2 s, 8 s in all)
  CHECK(err == "dereth: no answer from " + where + " within 8 s (4 login attempts); is the server running?\n");
}

TEST_CASE("dereth play: the server dying mid-session ends the run at the silence timeout, whatever --ticks says",
          "[app][e2e][live]") {
  Served served(kBasic);
  auto& server = served.server;
  const std::string& where = served.where;
  const PasswordFiles passwords;
  const std::string pw = passwords.make("secret");
  std::string out, err;
  int rc = -1;
  const auto start = std::chrono::steady_clock::now();
  std::thread player([&] {
    rc = run({"dereth", "play", "--server", where, "--account", "tester", "--password-file", pw, "--headless",
              "--no-record", "--ticks", "108000", "--silence-timeout", "2"},
             out, err);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  server.stop();
  const auto stopped = std::chrono::steady_clock::now();
  player.join();
  const double after_stop = seconds_since(stopped);
  INFO(out << err);
  CHECK(rc == 1);
  CHECK(out.find("in the world on " + where) != std::string::npos);
  // Linux reports the closed ports (ICMP port unreachable) at the next
  // datagram sent there; without that, the 2 s of silence end it.
  const bool unreachable =
      err.find("dereth: " + where + " went away (the system reports its port ") != std::string::npos;
  const bool silence =
      err.find("dereth: no packet from " + where + " for 2 s; the connection is lost\n") != std::string::npos;
  CHECK((unreachable || silence));
  CHECK(after_stop < 6.0);
  CHECK(seconds_since(start) < 12.0);
}

TEST_CASE("dereth play: a headless live run sleeps between frames and lasts --ticks/30 s", "[app][e2e][live]") {
  Served served(kBasic);
  auto& server = served.server;
  const PasswordFiles passwords;
  std::string out, err;
  CHECK(run({"dereth", "play", "--server", "127.0.0.1:" + std::to_string(server.port()), "--account", "tester",
             "--password-file", passwords.make("secret"), "--headless", "--no-record", "--ticks", "60"},
            out, err) == 0);
  INFO(out << err);
  // 60 ticks at 30 a second: 2 s of the real clock at 60 frames a second,
  // about 120 frames; a spinning loop made millions.
  const std::string frames = field(out, "frames");
  REQUIRE_FALSE(frames.empty());
  CHECK(std::stoull(frames) <= 160);
  CHECK(std::stod(field(out, "simulated_s")) >= 1.95);
}

TEST_CASE("dereth play: bad --dats and an empty password fail before any packet is sent", "[app][e2e][live]") {
  Served served(kBasic);
  auto& server = served.server;
  const std::string& where = served.where;
  const PasswordFiles passwords;
  std::string out, err;
  CHECK(run({"dereth", "play", "--server", where, "--account", "tester", "--password-file", passwords.make("secret"),
             "--headless", "--no-record", "--ticks", "30", "--dats", "/nonexistent-dereth-dats"},
            out, err) == 1);
  CHECK(err.find("dereth: cannot open the DATs: /nonexistent-dereth-dats/client_portal.dat") != std::string::npos);
  const std::string empty = (passwords.dir / "empty").string();
  std::ofstream(empty).flush();
  CHECK(run({"dereth", "play", "--server", where, "--account", "tester", "--password-file", empty, "--headless",
             "--no-record", "--ticks", "30"},
            out, err) == 2);
  CHECK(err == "dereth: the password file " + empty + " holds no password\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(server.stats().datagrams_received == 0);
}

TEST_CASE("dereth play: every F7B1 game action takes the next stamp of one counter (Proto_UI::GetNextUICounter)",
          "[app][e2e][live]") {
  // LoginComplete is the portal-space animation's (sent by the Controls at
  // its end, about 6.7 s after entry: 270 ticks are 9 s), AutonomousPosition
  // the command interpreter's: before, both counted from 1 on their own and
  // the server saw the stamp 1 twice.
  Served served("/data/demo/demo.scenario");
  auto& server = served.server;
  const PasswordFiles passwords;
  std::string out, err;
  REQUIRE(run({"dereth", "play", "--server", "127.0.0.1:" + std::to_string(server.port()), "--account", "demo",
               "--password-file", passwords.make("demo"), "--headless", "--no-record", "--ticks", "270"},
              out, err) == 0);
  std::vector<std::uint32_t> stamps;
  bool autonomous = false;
  int login_completes = 0;
  for (const auto& m : server.client_messages()) {
    if (m.opcode != 0xF7B1) continue;
    stamps.push_back(m.action_sequence);
    autonomous = autonomous || m.autonomous_position.has_value();
    if (m.action == 0x00A1) ++login_completes;
  }
  INFO(out << err);
  CHECK(autonomous);            // the interpreter did send (a position event each second on the ground)
  CHECK(login_completes == 1);  // the entry's, at the end of the portal-space animation, over real UDP
  REQUIRE(stamps.size() >= 2);
  for (std::size_t i = 0; i < stamps.size(); ++i) CHECK(stamps[i] == i + 1);
}

TEST_CASE("dereth play --headless: every chat line on standard output, and what --say sends arrives at the server",
          "[app][e2e][live][chat]") {
  Served served("/tests/scenario/data/chat.scenario");
  auto& server = served.server;
  const PasswordFiles passwords;
  std::string out, err;
  CHECK(run({"dereth",
             "play",
             "--server",
             served.where,
             "--account",
             "tester",
             "--password-file",
             passwords.make("secret"),
             "--headless",
             "--no-record",
             "--ticks",
             "300",
             "--say",
             "hello there",
             "--at",
             "0.5",
             "--say",
             "/t Borin the Bold, on my way",
             "--at",
             "1.0",
             "--say",
             "@telepoi Arwic",
             "--at",
             "1.5",
             "--say",
             "/e bows.",
             "--at",
             "2.0"},
            out, err) == 0);
  INFO(out << err);
  // What the player sees: one line per message, channel, sender and text.
  for (const char* line :
       {"chat: system: : Welcome to the chat scenario.\n", "chat: speech: Borin the Bold: Well met.\n",
        "chat: emote: Crier: Hear ye!\n", "chat: emote: Borin the Bold: waves.\n",
        "chat: soul-emote: Borin the Bold: glows softly.\n", "chat: tell: Borin the Bold: Meet me at the portal.\n",
        "chat: channel-0x800: Ann: LFG\n", "chat: error: : Turbine Chat is turned on.\n",
        "chat: error: : You could not snoop on Borin the Bold.\n",
        "chat: transient: : You are too encumbered to use that!\n", "chat: popup: : Welcome!\n"}) {
    CHECK(out.find(line) != std::string::npos);
  }
  // What the server received, in order, with rising game-action stamps.
  std::vector<dereth::protocol::ChatAction> said;
  std::vector<std::uint32_t> stamps;
  for (const auto& m : server.client_messages()) {
    if (m.chat) {
      said.push_back(*m.chat);
      stamps.push_back(m.action_sequence);
    }
    CHECK(m.decode_error.empty());
  }
  namespace ca = dereth::protocol::chat_action;
  std::string heard;
  for (const auto& s : said) heard += std::to_string(s.action) + " [" + s.text + "] to [" + s.target + "]\n";
  INFO(heard);
  REQUIRE(said.size() == 4);
  CHECK(said[0] == dereth::protocol::ChatAction{ca::Talk, "hello there", ""});
  CHECK(said[1] == dereth::protocol::ChatAction{ca::Tell, "on my way", "Borin the Bold"});
  CHECK(said[2] == dereth::protocol::ChatAction{ca::Talk, "@telepoi Arwic", ""});
  CHECK(said[3] == dereth::protocol::ChatAction{ca::Emote, "bows.", ""});
  CHECK(std::is_sorted(stamps.begin(), stamps.end()));
  CHECK(std::adjacent_find(stamps.begin(), stamps.end()) == stamps.end());
  // More --at than --say is a usage error.
  CHECK(run({"dereth", "play", "--server", served.where, "--account", "tester", "--at", "1"}, out, err) == 2);
}

TEST_CASE("A session that waits for the player's choice enters the world with the character chosen",
          "[app][e2e][live][characters]") {
  Served served(kBasic);
  dereth::net::UdpClientOptions o;
  o.port = served.server.port();
  o.session.account = "tester";
  o.session.password = "secret";
  o.session.wait_for_choice = true;
  auto client = dereth::net::UdpClient::connect(o);
  REQUIRE(client.has_value());
  const auto wait_for = [&](auto done) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
      const auto s = (*client)->status();
      if (done(s)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  };
  REQUIRE(wait_for([](const auto& s) { return s.awaiting_choice; }));
  const auto s = (*client)->status();
  REQUIRE(s.characters.has_value());
  REQUIRE(s.characters->characters.size() == 2);
  CHECK(s.state == dereth::net::SessionState::CharacterSelect);  // nothing entered yet
  (*client)->choose_character(s.characters->characters[1].guid);
  REQUIRE(wait_for([](const auto& st) { return st.state == dereth::net::SessionState::InWorld; }));
  CHECK((*client)->status().player_guid == 0x50000002);  // Borin the Bold, not the first
  (*client)->logout();
}

TEST_CASE("dereth play: an account without characters is one sentence and exit 1", "[app][e2e][live][characters]") {
  Served served("/tests/scenario/data/no_characters.scenario");
  const PasswordFiles passwords;
  std::string out, err;
  CHECK(run({"dereth", "play", "--server", served.where, "--account", "tester", "--password-file",
             passwords.make("secret"), "--headless", "--no-record", "--ticks", "1"},
            out, err) == 1);
  CHECK(err ==
        "dereth: the account has no characters; give --create NAME to make one, or choose Create in the window\n");
}

TEST_CASE("dereth play over UDP: the teleport ends with the portal-space animation's LoginComplete",
          "[app][e2e][live][teleport]") {
  // World entry's portal-space animation ends (4 to 7 s after entry) with
  // a LoginComplete, which starts the scenario's stream; the basic scenario
  // teleports the player 0.5 s into it (F751 and F748), and that teleport's
  // animation ends with the second LoginComplete, 4 to 7 s later, not at
  // the F748's arrival (docs/sim.md "Portal space").
  Served served(kBasic);
  auto& server = served.server;
  const PasswordFiles passwords;
  std::string out, err;
  REQUIRE(run({"dereth", "play", "--server", served.where, "--account", "tester", "--password-file",
               passwords.make("secret"), "--headless", "--no-record", "--ticks", "500"},
              out, err) == 0);
  INFO(out << err);
  const auto sessions = server.sessions();
  REQUIRE_FALSE(sessions.empty());
  const auto& s = sessions.back();
  CHECK(s.login_completes == 2);
  CHECK_FALSE(s.teleporting);
  std::vector<double> completes;
  std::optional<double> entered;
  for (const auto& m : server.client_messages()) {
    if (m.opcode == 0xF657 && !entered) entered = m.time;  // CharacterEnterWorld
    if (m.opcode == 0xF7B1 && m.action == 0x00A1) completes.push_back(m.time);
  }
  REQUIRE(entered.has_value());
  REQUIRE(completes.size() == 2);
  CHECK(completes[0] - *entered > 4.0);
  CHECK(completes[1] - completes[0] > 4.0);  // not at the F748's arrival (0.5 s into the stream)
}

TEST_CASE(
    "dereth play --headless --input: magic mode, Tab and three Flame Bolts kill the creature, at the server and "
    "in the trace",
    "[app][e2e][live][magic]") {
  Served served("/tests/scenario/data/cast.scenario");
  auto& server = served.server;
  const PasswordFiles passwords;
  const dereth::test::TempDir tmp("play-cast");
  const auto trace = (tmp / "trace.jsonl").string();
  std::string out, err;
  // \ for magic mode, Tab for the drudge 12 m north, End (CombatCastCurrentSpell in magic
  // mode) three times, 2.5 s apart: each cast's gesture, launch and UseDone take 2 s.
  CHECK(run({"dereth",          "play",
             "--server",        served.where,
             "--account",       "tester",
             "--password-file", passwords.make("secret"),
             "--headless",      "--no-record",
             "--ticks",         "600",
             "--trace",         trace,
             "--input",         "magic_mode down at=0.5",
             "--input",         "magic_mode up at=0.6",
             "--input",         "select_next_monster down at=1.0",
             "--input",         "select_next_monster up at=1.1",
             "--input",         "cast_spell down at=1.5",
             "--input",         "cast_spell up at=1.6",
             "--input",         "cast_spell down at=4.0",
             "--input",         "cast_spell up at=4.1",
             "--input",         "cast_spell down at=6.5",
             "--input",         "cast_spell up at=6.6"},
            out, err) == 0);
  INFO(out << err);
  // At the server: magic mode, then three CastTargetedSpell at the drudge with Flame Bolt I.
  std::vector<dereth::protocol::CastTargetedSpell> casts;
  bool magic_mode = false;
  for (const auto& m : server.client_messages()) {
    CHECK(m.decode_error.empty());
    if (m.action == dereth::protocol::combat_action::ChangeCombatMode && m.bytes.size() == 16) {
      magic_mode = magic_mode || m.bytes[12] == 8;
    }
    if (m.cast) casts.push_back(*m.cast);
  }
  std::string events;
  for (const auto& e : server.events()) events += e.text + "\n";
  INFO(events);
  CHECK(magic_mode);
  REQUIRE(casts.size() == 3);
  for (const auto& c : casts) {
    CHECK(c.target == 0x80000010u);
    CHECK(c.spell == 27u);
  }
  bool killed = false;
  int launched = 0;
  for (const auto& e : server.events()) {
    killed = killed || e.text.find("'Drudge Skulker' killed by Aerin's Flame Bolt") != std::string::npos;
    launched += e.text.find("Flame Bolt 0x") != std::string::npos ? 1 : 0;
  }
  CHECK(launched == 3);
  CHECK(killed);
  // What the player saw: two hits in the magic channel, then the kill.
  CHECK(out.find("chat: magic: : You ") != std::string::npos);
  CHECK(out.find("Drudge Skulker for ") != std::string::npos);
  CHECK(out.find("You have killed Drudge Skulker!") != std::string::npos);
  // In the trace: the same lines, and the bolts as objects the world simulated.
  std::ifstream in(trace);
  std::string line;
  int hits = 0;
  bool kill_line = false, bolt = false;
  while (std::getline(in, line)) {
    if (line.find(R"("kind":"chat")") != std::string::npos) {
      hits += line.find(R"("channel":"magic")") != std::string::npos &&
                      line.find("points of fire damage!") != std::string::npos
                  ? 1
                  : 0;
      kill_line = kill_line || line.find("You have killed Drudge Skulker!") != std::string::npos;
    }
    bolt = bolt || line.find("0x80001000") != std::string::npos || line.find("2147487744") != std::string::npos;
  }
  CHECK(hits == 2);
  CHECK(kill_line);
  CHECK(bolt);
}

TEST_CASE(
    "dereth play: the config's landscape_radius caps the landblocks kept about the player (landblocks= in the "
    "summary)",
    "[app][e2e][live][streaming]") {
  // The demo world's DATs in a folder (a 7 x 7 of landblocks about the town).
  const dereth::test::TempDir dats("play-dats");
  {
    auto world = dereth::demo::build_demo_world();
    REQUIRE(world);
    std::ofstream(dats / "client_portal.dat", std::ios::binary)
        .write(reinterpret_cast<const char*>(world->portal.data()), static_cast<std::streamsize>(world->portal.size()));
    std::ofstream(dats / "client_cell_1.dat", std::ios::binary)
        .write(reinterpret_cast<const char*>(world->cell.data()), static_cast<std::streamsize>(world->cell.size()));
  }
  Served served("/data/demo/demo.scenario");
  const PasswordFiles passwords;
  const auto landblocks = [&](const std::string& radius) {
    std::string out, err;
    std::vector<std::string> args = {"dereth",          "play",
                                     "--server",        served.where,
                                     "--account",       "demo",
                                     "--password-file", passwords.make("demo"),
                                     "--headless",      "--no-record",
                                     "--ticks",         "150",
                                     "--dats",          dats.path().string()};
    if (!radius.empty()) {
      args.emplace_back("--set");
      args.emplace_back("landscape_radius=" + radius);
    }
    REQUIRE(run(args, out, err) == 0);
    INFO(out << err);
    const std::size_t at = out.find(" landblocks=");
    REQUIRE(at != std::string::npos);
    return std::stoi(out.substr(at + 12));
  };
  CHECK(landblocks("") == 49);  // retail's radius 5 reaches the whole 7 x 7 world
  CHECK(landblocks("1") == 9);  // the near ring only
}
