// The demo scenario (data/demo/demo.scenario, embedded by
// src/scenario/demo_scenario.cpp): it parses, and played through the
// in-process Loopback it produces the world entry, the projectile chains and
// the recall, then repeats them with newer stamps.
#include "dereth/scenario/demo_scenario.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>

#include "dereth/core/timestamp.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/scenario/loopback.hpp"

#include "support/login_complete_stand_in.hpp"

using namespace dereth::scenario;
namespace protocol = dereth::protocol;
namespace demo = dereth::demo;
namespace ps = protocol::physics_state;
using TI = protocol::TimestampIndex;

namespace {

constexpr std::uint32_t kProjectileState = ps::Missile | ps::AlignPath | ps::PathClipped;
constexpr std::uint32_t kFirstProjectile = 0x80000101;
constexpr int kProjectiles = 16;

// Projectile k's launch, seconds after world entry: in pairs every 4 s, one
// NPC casting and the one it faces answering 0.8 s later, so the answer is
// in flight when the first explodes (one second after its launch). The
// pairs alternate between the near lane (y 120) and the far one (y 96).
double launch_time(int k) {
  return 1.0 + 4.0 * (k / 2) + 0.8 * (k % 2);
}
float lane_of(int k) {
  return (k / 2) % 2 == 0 ? 120.0f : 96.0f;
}

std::uint16_t stamp(const protocol::CreateObject& c, TI i) {
  return c.physics.timestamps[static_cast<std::size_t>(i)];
}

// One received message, decoded, with its time after world entry.
struct Received {
  double t = 0;
  protocol::Message m;
};

template <class T>
const T* as(const Received& r) {
  return std::get_if<T>(&r.m);
}

std::uint32_t guid_of(const Received& r) {
  return std::visit(
      [](const auto& m) -> std::uint32_t {
        if constexpr (requires { m.guid; }) {
          return m.guid;
        } else {
          return 0;
        }
      },
      r.m);
}

// Logs in through the Loopback and plays the demo until `until` seconds after
// the server's timeline starts (the LoginComplete the stand-in sends at world
// entry), in 50 ms steps; message times count from that start.
std::vector<Received> play(double until) {
  auto scenario = demo_scenario();
  if (!scenario) FAIL(scenario.error().message());
  auto loop = Loopback::create(std::move(*scenario));
  REQUIRE(loop.has_value());
  std::optional<double> entry;       // when the server's timeline starts: its first LoginComplete
  std::optional<double> entered_at;  // the client's PlayerCreate
  std::vector<Received> out;
  dereth::test::LoginCompleteStandIn stand_in;  // the World's portal-space animation is not run here
  for (int step = 0; step < 100000; ++step) {
    const double now = 0.05 * step;
    for (auto& m : loop->advance(now)) {
      if (stand_in.on_message(m.bytes)) {
        loop->send(dereth::test::LoginCompleteStandIn::login_complete(loop->next_action_sequence()),
                   protocol::queue::Weenie);
        // The server reads it at the next step and starts its timeline then.
        if (!entry) entry = now + 0.05;
      }
      auto decoded = protocol::decode_message(m.bytes);
      if (!decoded) continue;  // login and UI messages the decoder does not model
      if (!entered_at && std::holds_alternative<protocol::PlayerCreate>(*decoded)) {
        entered_at = m.time;
      }
      if (entered_at) out.push_back(Received{m.time, std::move(*decoded)});
    }
    if (entry && now - *entry > until) break;
  }
  REQUIRE(entry.has_value());
  REQUIRE(loop->failure().empty());
  for (Received& r : out) r.t -= *entry;  // timeline time: world entry's messages come just before 0
  return out;
}

// The messages for `guid` within [from, to) seconds after entry.
std::vector<Received> for_guid(const std::vector<Received>& all, std::uint32_t guid, double from, double to) {
  std::vector<Received> out;
  for (const auto& r : all) {
    if (r.t >= from && r.t < to && guid_of(r) == guid) out.push_back(r);
  }
  return out;
}

// Checks one projectile's chain in one period; returns its Instance stamp.
std::uint16_t check_projectile(const std::vector<Received>& all, int k, double period_start) {
  const std::uint32_t guid = kFirstProjectile + static_cast<std::uint32_t>(k);
  const double launch = period_start + launch_time(k);
  INFO("projectile 0x" << std::hex << guid << std::dec << " launched at " << launch);
  const auto chain = for_guid(all, guid, launch - 0.5, launch + 2.5);
  REQUIRE(chain.size() == 6);

  const auto* create = as<protocol::CreateObject>(chain[0]);
  REQUIRE(create != nullptr);
  CHECK(chain[0].t == Approx(launch).margin(0.06));
  CHECK((create->physics.state & kProjectileState) == kProjectileState);
  REQUIRE(create->physics.velocity.has_value());
  const auto& v = *create->physics.velocity;
  CHECK(std::hypot(v.x, v.y, v.z) > 20.0f);
  // A kind from the seed's set, with its own Setup and table.
  REQUIRE(create->physics.setup_id.has_value());
  REQUIRE(create->physics.physics_script_table_id.has_value());
  const auto kind = std::ranges::find_if(
      demo::kProjectiles, [&](const demo::ProjectileKind& p) { return p.setup == *create->physics.setup_id; });
  REQUIRE(kind != demo::kProjectiles.end());
  CHECK(kind->script_table == *create->physics.physics_script_table_id);

  const auto* launch_script = as<protocol::PlayScriptType>(chain[1]);
  REQUIRE(launch_script != nullptr);
  CHECK(launch_script->script_type == demo::play_script::Launch);
  CHECK(chain[1].t == Approx(launch).margin(0.06));

  // The impact is the server's: SetState, Explode, velocity zero, one second on.
  const auto* impact = as<protocol::SetState>(chain[2]);
  REQUIRE(impact != nullptr);
  CHECK(chain[2].t == Approx(launch + 1.0).margin(0.06));
  CHECK((impact->state & (ps::Ethereal | ps::IgnoreCollisions)) == (ps::Ethereal | ps::IgnoreCollisions));
  CHECK((impact->state & ps::ReportCollisions) == 0);
  CHECK(impact->instance_ts == stamp(*create, TI::Instance));
  const auto* explode = as<protocol::PlayScriptType>(chain[3]);
  REQUIRE(explode != nullptr);
  CHECK(explode->script_type == demo::play_script::Explode);
  const auto* stop = as<protocol::VectorUpdate>(chain[4]);
  REQUIRE(stop != nullptr);
  CHECK(stop->velocity == protocol::Vec3{0.0f, 0.0f, 0.0f});
  CHECK(stop->instance_ts == stamp(*create, TI::Instance));

  const auto* del = as<protocol::DeleteObject>(chain[5]);
  REQUIRE(del != nullptr);
  CHECK(chain[5].t == Approx(launch + 2.0).margin(0.06));
  CHECK(del->instance_ts == stamp(*create, TI::Instance));
  return stamp(*create, TI::Instance);
}

struct Recall {
  std::uint16_t action_stamp = 0;
  std::uint16_t teleport_ts = 0;
};

// Checks the recall in one period: Movement with the action, Hidden, F751,
// F748 with the F751's (newer) Teleport stamp, then visible again.
Recall check_recall(const std::vector<Received>& all, std::uint32_t player, double period_start,
                    std::uint16_t stored_teleport) {
  std::vector<const Received*> seq;
  for (const auto& r : all) {
    if (r.t < period_start + 1.0 || r.t >= period_start + 33.0) continue;
    if (std::holds_alternative<protocol::PlayerTeleport>(r.m) || guid_of(r) == player) seq.push_back(&r);
  }
  REQUIRE(seq.size() == 6);
  Recall out;

  const auto* move = as<protocol::MovementEvent>(*seq[0]);
  REQUIRE(move != nullptr);
  CHECK(seq[0]->t == Approx(period_start + 5.0).margin(0.06));
  CHECK(move->is_autonomous == 0);
  const auto* im = std::get_if<protocol::InterpretedMovement>(&move->data.payload);
  REQUIRE(im != nullptr);
  REQUIRE(im->state.commands.size() == 1);
  CHECK(im->state.commands[0].command == (demo::motion::Recall & 0xFFFFu));
  CHECK((im->state.commands[0].packed_sequence & 0x8000u) == 0);
  out.action_stamp = static_cast<std::uint16_t>(im->state.commands[0].packed_sequence & 0x7FFFu);

  const auto* hidden = as<protocol::SetState>(*seq[1]);
  REQUIRE(hidden != nullptr);
  CHECK((hidden->state & ps::Hidden) != 0);
  CHECK(seq[1]->t == Approx(period_start + 20.1).margin(0.06));

  const auto* teleport = as<protocol::PlayerTeleport>(*seq[2]);
  REQUIRE(teleport != nullptr);
  CHECK(dereth::core::is_newer(teleport->teleport_ts, stored_teleport));
  out.teleport_ts = teleport->teleport_ts;

  const auto* destination = as<protocol::UpdatePosition>(*seq[3]);
  REQUIRE(destination != nullptr);
  CHECK(destination->position.teleport_ts == teleport->teleport_ts);
  CHECK(dereth::core::is_newer(destination->position.teleport_ts, stored_teleport));
  CHECK(destination->position.cell_id == 0xA9B4001Eu);  // the recall's spot, north-east of the lanes

  const auto* still_hidden = as<protocol::SetState>(*seq[4]);
  REQUIRE(still_hidden != nullptr);
  CHECK((still_hidden->state & ps::Hidden) != 0);

  // The client's LoginComplete for the F748 ends the teleport: visible.
  const auto* visible = as<protocol::SetState>(*seq[5]);
  REQUIRE(visible != nullptr);
  CHECK((visible->state & ps::Hidden) == 0);
  CHECK(seq[5]->t == Approx(period_start + 21.0).margin(0.12));
  CHECK(dereth::core::is_newer(visible->state_ts, still_hidden->state_ts));
  return out;
}

}  // namespace

TEST_CASE("Demo scenario: the embedded text is data/demo/demo.scenario", "[scenario][demo]") {
  std::ifstream in(std::string(DERETH_SOURCE_DIR) + "/data/demo/demo.scenario", std::ios::binary);
  REQUIRE(in.good());
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(demo_scenario_text() == file);
}

TEST_CASE("Demo scenario: parses, with NPCs, projectiles in pairs every 4 s, the portals and a 64 s loop",
          "[scenario][demo][parse]") {
  auto s = demo_scenario();
  if (!s) FAIL(s.error().message());
  CHECK(s->name == "demo.scenario");
  REQUIRE(s->accounts.size() == 1);
  REQUIRE(s->accounts[0].characters.size() == 1);
  REQUIRE(s->loop_period.has_value());
  CHECK(*s->loop_period == 64.0);
  CHECK(s->loop_from == 1.0);
  CHECK_FALSE(s->loop_count.has_value());
  CHECK(s->player.setup_id == demo::kHumanSetup);
  CHECK(s->player.motion_table_id == demo::kHumanMotionTable);
  CHECK(s->player.physics_script_table_id == demo::kHumanScriptTable);

  int npcs = 0, projectiles = 0, torches = 0;
  std::vector<const PortalSpec*> portals;
  std::vector<double> launches;
  std::vector<float> lanes;       // each launch's y
  std::vector<float> directions;  // each launch's x velocity
  for (const auto& e : s->stream) {
    if (const auto* c = std::get_if<protocol::CreateObject>(&e.message)) {
      if ((c->physics.state & ps::Missile) != 0) {
        ++projectiles;
        launches.push_back(e.time);
        REQUIRE(c->physics.position.has_value());
        lanes.push_back(c->physics.position->origin.y);
        REQUIRE(c->physics.velocity.has_value());
        directions.push_back(c->physics.velocity->x);
      } else if (c->physics.setup_id == demo::kTorchSetup) {
        ++torches;  // the dungeon's
        REQUIRE(c->physics.position.has_value());
        CHECK((c->physics.position->cell_id >> 16) == (demo::kDungeonLandBlock >> 16));
      } else {
        ++npcs;
        CHECK(c->physics.setup_id == demo::kHumanSetup);
        CHECK((c->physics.state & ps::Gravity) == 0);  // no collision yet: they would fall
      }
    }
    if (const auto* p = std::get_if<PortalSpec>(&e.message)) portals.push_back(p);
  }
  CHECK(npcs == 4);
  CHECK(torches == 6);
  // Two halves of the 64 s loop, the same exchanges 32 s apart.
  CHECK(projectiles == 2 * kProjectiles);
  REQUIRE(launches.size() == 2 * kProjectiles);
  for (int k = 0; k < 2 * kProjectiles; ++k) {
    INFO("projectile " << k);
    const auto i = static_cast<std::size_t>(k);
    CHECK(launches[i] == Approx(launch_time(k % kProjectiles) + 32.0 * (k / kProjectiles)));
    CHECK(lanes[i] == lane_of(k % kProjectiles));
  }
  // The town's portal leads into the dungeon's entry hall, the exit portal
  // in its great hall back to the town (the block north of the start).
  // (In time order: the exit portal stands from 0 s, the town's appears at 35.2 s.)
  REQUIRE(portals.size() == 2);
  CHECK(portals[1]->create.physics.position->cell_id >> 16 == demo::kLandBlock >> 16);
  CHECK(portals[1]->destination.cell_id == demo::kDungeonEntryCell);
  CHECK(portals[0]->create.physics.position->cell_id == demo::kDungeonHallCell);
  CHECK(portals[0]->destination.cell_id >> 16 == 0xA9B5u);
  for (const PortalSpec* p : portals) {
    CHECK(p->create.physics.setup_id == demo::kPortalSetup);
    CHECK(p->create.weenie.item_type == portal_defaults::kItemType);
  }
  // Within a pair: the answer flies the other way along the same lane, is
  // launched before the first explodes and explodes after it, so one bolt
  // is in flight while the other explodes.
  for (int k = 0; k + 1 < kProjectiles; k += 2) {
    const auto i = static_cast<std::size_t>(k);
    CHECK(directions[i] * directions[i + 1] < 0.0f);
    CHECK(launch_time(k + 1) < launch_time(k) + 1.0);
    CHECK(launch_time(k + 1) + 1.0 > launch_time(k) + 1.0);
  }
}

TEST_CASE("Demo scenario: one loop period through the Loopback, then the repeat with newer stamps",
          "[scenario][demo][loopback]") {
  const auto all = play(98.5);
  constexpr std::uint32_t kPlayer = 0x50000001;

  // World entry: the player, then the four NPCs.
  std::map<std::uint32_t, int> creates;
  std::uint16_t player_teleport = 0;
  for (const auto& r : all) {
    if (r.t > 0.1) break;
    if (const auto* c = as<protocol::CreateObject>(r)) {
      ++creates[c->guid];
      if (c->guid == kPlayer) player_teleport = stamp(*c, TI::Teleport);
    }
  }
  CHECK(creates.count(kPlayer) == 1);
  for (std::uint32_t g = 0x80000010; g <= 0x80000013; ++g) CHECK(creates.count(g) == 1);
  // The town's portal, at 35.2 s (and again a period later), as ACE sends
  // a portal: ItemType Portal, Stuck | Attackable | Portal, Ethereal |
  // ReportCollisions | Gravity | LightingOn. The dungeon's objects (its exit
  // portal, its torches) wait for the player there: none was sent to a
  // player in the town.
  CHECK(creates.count(0x80000200) == 0);
  int portal_creates = 0;
  for (const auto& r : all) {
    const auto* c = as<protocol::CreateObject>(r);
    if (c == nullptr) continue;
    if (c->guid == 0x80000200) {
      ++portal_creates;
      CHECK(std::fmod(r.t, 64.0) == Approx(35.2).margin(0.06));
      CHECK(c->weenie.item_type == 0x00010000u);
      CHECK(c->weenie.object_description_flags == 0x00040014u);
      CHECK(c->physics.state == 0x00000C0Cu);
      CHECK(c->physics.setup_id == demo::kPortalSetup);
    }
    CHECK(c->guid != 0x80000201);
    CHECK((c->guid < 0x80000210 || c->guid > 0x80000215));
  }
  CHECK(portal_creates == 1);

  // The first half (everything from 1 s to 33 s after entry).
  for (int k = 0; k < kProjectiles; ++k) CHECK(check_projectile(all, k, 0.0) == 1);
  const Recall first = check_recall(all, kPlayer, 0.0, player_teleport);
  CHECK(first.action_stamp == 1);
  // The second half: the same chains, each GUID one Instance newer, and no
  // recall (the scripted walk goes to the dungeon then; this client stands).
  for (int k = 0; k < kProjectiles; ++k) CHECK(check_projectile(all, k, 32.0) == 2);
  for (const auto& r : all) {
    if (r.t >= 33.0 && r.t < 65.0) CHECK_FALSE(std::holds_alternative<protocol::PlayerTeleport>(r.m));
  }

  // The second period: the same chains again, and a recall with the next
  // action and Teleport stamps. The NPCs are not re-created.
  for (int k = 0; k < kProjectiles; ++k) CHECK(check_projectile(all, k, 64.0) == 3);
  const Recall second = check_recall(all, kPlayer, 64.0, first.teleport_ts);
  CHECK(second.action_stamp == 2);
  CHECK(dereth::core::is_newer(second.teleport_ts, first.teleport_ts));
  int npc_creates = 0;
  for (const auto& r : all) {
    if (const auto* c = as<protocol::CreateObject>(r); c != nullptr && c->guid >= 0x80000010 && c->guid <= 0x80000013) {
      ++npc_creates;
    }
  }
  CHECK(npc_creates == 4);
}

TEST_CASE("Demo scenario: the server starts its timeline with the client's LoginComplete, not at world entry",
          "[scenario][demo][loopback]") {
  auto scenario = demo_scenario();
  REQUIRE(scenario.has_value());
  auto loop = Loopback::create(std::move(*scenario));
  REQUIRE(loop.has_value());
  int npc_creates = 0;
  int recalls = 0;
  bool player_created = false;
  const auto take = [&](double now) {
    for (auto& m : loop->advance(now)) {
      auto decoded = protocol::decode_message(m.bytes);
      if (!decoded) continue;
      if (const auto* c = std::get_if<protocol::CreateObject>(&*decoded)) {
        if (c->guid == 0x50000001u) player_created = true;
        if (c->guid >= 0x80000010u && c->guid <= 0x80000013u) ++npc_creates;
      }
      if (const auto* mv = std::get_if<protocol::MovementEvent>(&*decoded); mv != nullptr && mv->guid == 0x50000001u) {
        ++recalls;
      }
    }
  };
  // Ten seconds in the world without a LoginComplete (the player in portal
  // space): nothing of the stream, the recall at 5 s least of all.
  double now = 0.0;
  for (; now < 10.0; now += 0.05) take(now);
  REQUIRE(player_created);
  CHECK(npc_creates == 0);
  CHECK(recalls == 0);
  // The LoginComplete: the NPCs come at once, the recall 5 s later.
  loop->send(dereth::test::LoginCompleteStandIn::login_complete(loop->next_action_sequence()), protocol::queue::Weenie);
  const double start = now;
  for (; now < start + 4.9; now += 0.05) take(now);
  CHECK(npc_creates == 4);
  CHECK(recalls == 0);
  for (; now < start + 5.3; now += 0.05) take(now);
  CHECK(recalls == 1);
}
