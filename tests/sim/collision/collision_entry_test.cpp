// Housing's cell entry restrictions in the transition (RE ccell/CObjCell.c
// check_entry_restrictions, ccell/CLandCell.c handle_move_restriction,
// engine_house/RestrictionDB.c, accobject/ACCWeenieObj.c CanMoveInto and
// CanBypassMoveRestrictions, ccell/CLandBlock.c init_static_objs).
//
// The world: a flat landblock A9B4 at z 10. The land cell 0xA9B4001B (cell
// (3, 2): x 72..96, y 48..72, centre (84, 60)) is restricted by the house
// object kHouse, owned by kOwner, whose RestrictionDB lists kGuest and the
// monarch kMonarch. Walkers are 0.5 m spheres centred 0.5 m above their
// origin with 0.4 m step heights, starting in 0xA9B40013 (x 48..72).
#include <catch2/catch.hpp>

#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/cells/restriction_db.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "cells/house_support.hpp"
#include "cells/landscape_support.hpp"
#include "collision/collision_support.hpp"
#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;

namespace {

constexpr std::uint32_t kStart = 0xA9B40013;       // x 48..72, y 48..72
constexpr std::uint32_t kRestricted = 0xA9B4001B;  // x 72..96, y 48..72
constexpr std::uint32_t kHouse = 0x7A9B4001;
constexpr std::uint32_t kOwner = 0x50000002;
constexpr std::uint32_t kGuest = 0x50000003;
constexpr std::uint32_t kMonarch = 0x50000004;
constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kScriptTable = 0x34000010;
constexpr std::uint32_t kRestrictionScript = 0x33000020;
constexpr std::uint32_t kRestrictionType = 0x97;  // the house's pscript (a PScriptType)
constexpr std::uint32_t kAdmin = 0x00100000;
constexpr std::uint32_t kImmune = 0x00400000;
const glm::vec3 kRoomOrigin(60, 60, 10);

WeenieTraits house_weenie() {
  WeenieTraits w;
  w.house_owner_iid = kOwner;
  RestrictionDB db;
  db.monarch_iid = kMonarch;
  db.table[kGuest] = 0;
  w.db = db;
  w.pscript = kRestrictionType;
  return w;
}

WeenieTraits player_weenie() {
  WeenieTraits w;
  w.is_player = true;
  w.bitfield = 0x8;  // ObjectDescriptionFlags Player
  return w;
}

struct Housing {
  explicit Housing(bool with_room = false) : effects(log) {
    context.cells = &landscape;
    context.set_effects(&effects);
    effects.add_entry(kScriptTable, kRestrictionType, 100.0f, kRestrictionScript);
    std::vector<Building> buildings;
    const core::Frame frame(kRoomOrigin, glm::quat(1, 0, 0, 0));
    if (with_room) buildings.push_back(house_building(frame));
    REQUIRE(landscape.add_block(flat_block(0xA9B4FFFF), std::move(buildings)));
    if (with_room) REQUIRE(landscape.add_env_cell(room(frame)));
    auto h = std::make_unique<PhysicsObj>(context, kHouse, maint.assign_local_id(kHouse));
    h->set_weenie(house_weenie());
    house = &maint.add_object(std::move(h));
    landscape.get_cell(kRestricted)->set_restriction_obj(kHouse);
  }
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  RecordingEffects effects;
  ObjectMaint maint{context};
  Landscape landscape;
  PhysicsObj* house = nullptr;

  // A walker standing at `origin` (placed by enter_world) with `weenie`.
  std::unique_ptr<PhysicsObj> walker(std::uint32_t guid, glm::vec3 origin, std::optional<WeenieTraits> weenie,
                                     std::uint32_t cell = kStart) {
    auto obj = std::make_unique<PhysicsObj>(context, guid, LocalId{guid});
    auto parts = std::make_unique<FakePartArray>(log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}};
    parts->sphere_count = 1;
    parts->step_up = 0.4f;
    parts->step_down = 0.4f;
    obj->set_part_array(std::move(parts));
    protocol::PhysicsDesc desc;
    desc.physics_script_table_id = kScriptTable;
    REQUIRE(obj->set_description(desc, false));
    obj->set_state(ps::Gravity | ps::EdgeSlide, false);
    obj->set_weenie(std::move(weenie));
    obj->store_position(Position{cell, core::Frame(origin, glm::quat(1, 0, 0, 0))});
    REQUIRE(obj->enter_world(obj->position()));
    return obj;
  }
};

// One move of `mover` by `delta` as CPhysicsObj::transition runs it
// (committed when find_valid_position succeeds); the transition is returned
// either way, with `ok` its verdict.
std::unique_ptr<Transition> step(PhysicsObj& mover, glm::vec3 delta, bool* ok = nullptr) {
  Position p = mover.position();
  Position next = p;
  next.frame.origin += delta;
  auto t = std::make_unique<Transition>(*mover.context().cells);
  t->init_object(mover, mover.get_object_info(false, t.get()));
  const auto spheres = mover.part_array()->spheres();
  t->init_sphere(static_cast<std::uint32_t>(spheres.size()), spheres.data(), mover.scale());
  t->init_path(mover.cell(), &p, next);
  const bool found = t->find_valid_position();
  if (found) mover.set_position_internal(*t);
  if (ok != nullptr) *ok = found;
  return t;
}

// A transition whose mover is `mover` (its OBJECTINFO as a move would set
// it) and whose current position is `curr`, for calling a cell directly.
std::unique_ptr<Transition> transition_for(Housing& h, PhysicsObj* mover, const Position& curr) {
  auto t = std::make_unique<Transition>(h.landscape);
  if (mover != nullptr) t->init_object(*mover, mover->get_object_info(false));
  t->sphere_path.curr_pos = curr;
  return t;
}

}  // namespace

TEST_CASE("RestrictionDB::IsAllowedIn 0x005AE8F0: open house, the monarch, a listed guest", "[retail][sim]") {
  RestrictionDB db;
  db.monarch_iid = kMonarch;
  db.table[kGuest] = 1;
  CHECK(db.is_allowed_in(kGuest, 0));
  CHECK(db.is_allowed_in(0x50000009, kMonarch));  // anyone under the monarch
  CHECK_FALSE(db.is_allowed_in(0x50000009, 0x50000008));
  CHECK_FALSE(db.is_allowed_in(0, 0));
  // A monarch of 0 admits nobody by monarch, even a guest whose monarch is 0.
  RestrictionDB no_monarch;
  CHECK_FALSE(no_monarch.is_allowed_in(0x50000009, 0));
  // Guest 0 is never looked up, even when listed.
  RestrictionDB zero;
  zero.table[0] = 0;
  CHECK_FALSE(zero.is_allowed_in(0, 0x50000008));
  // Bit 0 of the bitmask: an open house admits everyone; other bits do not.
  db.bitmask = 2;
  CHECK_FALSE(db.is_allowed_in(0x50000009, 0));
  db.bitmask = 1;
  CHECK(db.is_allowed_in(0x50000009, 0));
  CHECK(db.is_allowed_in(0, 0));
}

TEST_CASE("RestrictionDB from the wire: openStatus is the bitmask, monarchGuid the monarch, the entries the table",
          "[sim]") {
  protocol::HouseRestrictions wire;
  wire.open_status = 1;
  wire.monarch_guid = kMonarch;
  wire.entries = {{kGuest, 1}, {kOwner, 0}, {kGuest, 0}};
  const RestrictionDB db = RestrictionDB::from_wire(wire);
  CHECK(db.bitmask == 1);
  CHECK(db.monarch_iid == kMonarch);
  CHECK(db.table.size() == 2);
  CHECK(db.table.at(kGuest) == 1);  // the first of a repeated guid
}

TEST_CASE(
    "CLandCell::handle_move_restriction 0x00533070 sets an axis normal from the cell's centre to the mover "
    "(CLandBlockStruct::ConstructPolygons 0x00531D10)",
    "[retail][sim]") {
  Housing h;
  auto* cell = dynamic_cast<LandCell*>(h.landscape.get_cell(kRestricted));
  REQUIRE(cell != nullptr);
  CHECK(cell->pos().objcell_id == kRestricted);
  CHECK(cell->pos().frame.origin == glm::vec3(84, 60, 0));
  const auto normal_at = [&](glm::vec3 curr, std::uint32_t curr_cell = kStart) {
    auto t = transition_for(h, nullptr, Position{curr_cell, core::Frame(curr, glm::quat(1, 0, 0, 0))});
    CHECK(cell->handle_move_restriction(*t));
    CHECK(t->collision_info.collision_normal_valid);
    return t->collision_info.collision_normal;
  };
  CHECK(normal_at({71.5f, 60, 10}) == glm::vec3(-1, 0, 0));  // west of it
  CHECK(normal_at({96.5f, 60, 10}) == glm::vec3(1, 0, 0));   // east
  CHECK(normal_at({84, 47.5f, 10}) == glm::vec3(0, -1, 0));  // south
  CHECK(normal_at({84, 72.5f, 10}) == glm::vec3(0, 1, 0));   // north
  // Diagonally off a corner the y test wins.
  CHECK(normal_at({71.5f, 47.5f, 10}) == glm::vec3(0, -1, 0));
  CHECK(normal_at({96.5f, 72.5f, 10}) == glm::vec3(0, 1, 0));
  // Exactly half a cell off is not past it; inside the cell the normal is +x.
  CHECK(normal_at({84, 48, 10}) == glm::vec3(1, 0, 0));
  CHECK(normal_at({72, 60, 10}) == glm::vec3(1, 0, 0));
  CHECK(normal_at({84, 60, 10}) == glm::vec3(1, 0, 0));
  // The offset is landblock-aware: from the block to the west.
  CHECK(normal_at({191.5f, 60, 10}, 0xA8B4003B) == glm::vec3(-1, 0, 0));
}

TEST_CASE(
    "CObjCell::check_entry_restrictions 0x0052B6D0 through CLandCell::find_env_collisions 0x00532F20: a player not let "
    "in stops at the restricted cell (CLandCell::handle_move_restriction 0x00533070, 0x0058DA40)",
    "[retail][sim]") {
  Housing h;
  auto p = h.walker(kPlayer, {70, 60, 10}, player_weenie());
  walk(*p, 6, {0.25f, 0, 0});
  CHECK(origin(*p).x == Approx(71.5f).margin(1e-4));
  // The sphere (0.5 m) touches x 72 at the origin x 71.5; the next step
  // overlaps the cell and is refused: the mover stays, the transition
  // succeeds in place with handle_move_restriction's normal, which
  // validate_transition makes the sliding normal.
  bool ok = false;
  auto t = step(*p, {0.25f, 0, 0}, &ok);
  CHECK(ok);
  CHECK(p->position().objcell_id == kStart);
  CHECK(origin(*p).x == Approx(71.5f).margin(1e-4));
  CHECK(t->collision_info.collision_normal_valid);
  CHECK(t->collision_info.collision_normal == glm::vec3(-1, 0, 0));
  CHECK((p->transient_state() & transient_state::Sliding) != 0);
  CHECK(p->sliding_normal() == glm::vec3(-1, 0, 0));
  // Pushing on along the normal slides to nothing.
  walk(*p, 4, {0.25f, 0, 0});
  CHECK(origin(*p).x == Approx(71.5f).margin(1e-4));
  // From the south the normal is -y.
  auto south = h.walker(kPlayer + 10, {84, 46, 10}, player_weenie(), 0xA9B4001A);
  walk(*south, 6, {0, 0.25f, 0});
  auto ts = step(*south, {0, 0.25f, 0});
  CHECK(south->position().objcell_id == 0xA9B4001A);
  CHECK(origin(*south).y == Approx(47.5f).margin(1e-4));
  CHECK(ts->collision_info.collision_normal == glm::vec3(0, -1, 0));
}

TEST_CASE(
    "ACCWeenieObject::CanMoveInto 0x0058DA40: a refused player plays the house's restriction script, unless the option "
    "turns it off (ACCWeenieObject::PlayScript 0x0058C480)",
    "[retail][sim]") {
  Housing h;
  auto p = h.walker(kPlayer, {71.5f, 60, 10}, player_weenie());
  h.effects.plays.clear();
  h.effects.resolves.clear();
  step(*p, {0.25f, 0, 0});
  REQUIRE_FALSE(h.effects.plays.empty());
  CHECK(h.effects.plays.back().script == kRestrictionScript);
  CHECK(h.effects.plays.back().owner == p->local_id());
  REQUIRE_FALSE(h.effects.resolves.empty());
  CHECK(h.effects.resolves.back().table == kScriptTable);
  CHECK(h.effects.resolves.back().type == kRestrictionType);
  // The intensity is a tenth of the mover's speed (standing: 0).
  CHECK(h.effects.resolves.back().intensity == 0.0f);

  h.effects.plays.clear();
  h.context.disable_house_restriction_effects = true;
  step(*p, {0.25f, 0, 0});
  CHECK(origin(*p).x == Approx(71.5f).margin(1e-4));  // still refused
  CHECK(h.effects.plays.empty());

  // A house without a pscript refuses silently.
  h.context.disable_house_restriction_effects = false;
  WeenieTraits quiet = house_weenie();
  quiet.pscript = 0;
  h.house->set_weenie(quiet);
  step(*p, {0.25f, 0, 0});
  CHECK(origin(*p).x == Approx(71.5f).margin(1e-4));
  CHECK(h.effects.plays.empty());

  // A null mover cannot move in.
  CHECK_FALSE(h.house->weenie_can_move_into(nullptr));
}

TEST_CASE(
    "ACCWeenieObject::CanMoveInto 0x0058DA40 lets the owner, a listed guest, the monarch's members and anyone into an "
    "open or ownerless house (RestrictionDB::IsAllowedIn 0x005AE8F0)",
    "[retail][sim]") {
  Housing h;
  const auto walks_in = [&](std::uint32_t guid, WeenieTraits weenie) {
    auto p = h.walker(guid, {70, 60, 10}, std::move(weenie));
    walk(*p, 12, {0.25f, 0, 0});
    return p->position().objcell_id == kRestricted && origin(*p).x == Approx(73.0f).margin(1e-4);
  };
  SECTION("the owner") {
    CHECK(walks_in(kOwner, player_weenie()));
  }
  SECTION("a guest in the RestrictionDB") {
    CHECK(walks_in(kGuest, player_weenie()));
  }
  SECTION("a member of the house's monarch (the mover's pwd._monarch)") {
    WeenieTraits w = player_weenie();
    w.monarch = kMonarch;
    CHECK(walks_in(0x50000009, w));
  }
  SECTION("anyone, when the house is open") {
    WeenieTraits open = house_weenie();
    open.db->bitmask = 1;
    h.house->set_weenie(open);
    CHECK(walks_in(0x50000009, player_weenie()));
  }
  SECTION("anyone, when the house has no owner") {
    WeenieTraits ownerless = house_weenie();
    ownerless.house_owner_iid = 0;
    h.house->set_weenie(ownerless);
    CHECK(walks_in(0x50000009, player_weenie()));
  }
  SECTION("anyone, when the house has no RestrictionDB") {
    WeenieTraits no_db = house_weenie();
    no_db.db.reset();
    h.house->set_weenie(no_db);
    CHECK(walks_in(0x50000009, player_weenie()));
  }
  SECTION("not a stranger") {
    CHECK_FALSE(walks_in(0x50000009, player_weenie()));
  }
}

TEST_CASE(
    "ACCWeenieObject::CanBypassMoveRestrictions 0x0058C500 needs both Admin and ImmuneCellRestrictions "
    "(CObjCell::check_entry_restrictions 0x0052B6D0)",
    "[retail][sim]") {
  Housing h;
  const auto with_bits = [](std::uint32_t bits) {
    WeenieTraits w = player_weenie();
    w.bitfield |= bits;
    return w;
  };
  auto both = h.walker(0x50000011, {70, 60, 10}, with_bits(kAdmin | kImmune));
  auto admin = h.walker(0x50000012, {70, 56, 10}, with_bits(kAdmin));
  auto immune = h.walker(0x50000013, {70, 52, 10}, with_bits(kImmune));
  CHECK(both->weenie_can_bypass_move_restrictions());
  CHECK_FALSE(admin->weenie_can_bypass_move_restrictions());
  CHECK_FALSE(immune->weenie_can_bypass_move_restrictions());
  for (PhysicsObj* p : {both.get(), admin.get(), immune.get()}) walk(*p, 12, {0.25f, 0, 0});
  CHECK(both->position().objcell_id == kRestricted);
  CHECK(admin->position().objcell_id == kStart);
  CHECK(origin(*admin).x == Approx(71.5f).margin(1e-4));
  CHECK(immune->position().objcell_id == kStart);
  CHECK(origin(*immune).x == Approx(71.5f).margin(1e-4));
}

TEST_CASE(
    "CObjCell::check_entry_restrictions 0x0052B6D0: a restriction object missing from the object table, or without a "
    "weenie, refuses without a normal (CPhysicsObj::GetObjectA 0x0050F490)",
    "[retail][sim]") {
  Housing h;
  auto p = h.walker(kOwner, {70, 60, 10}, player_weenie());  // the owner: let in by the house
  ObjCell* cell = h.landscape.get_cell(kRestricted);
  SECTION("not in the object table") {
    cell->set_restriction_obj(0x7A9B4002);
  }
  SECTION("without a weenie") {
    h.house->set_weenie(std::nullopt);
  }
  auto t = transition_for(h, p.get(), p->position());
  CHECK(cell->check_entry_restrictions(*t) == TransitionState::Collided);
  CHECK_FALSE(t->collision_info.collision_normal_valid);
  walk(*p, 12, {0.25f, 0, 0});
  CHECK(p->position().objcell_id == kStart);
  CHECK(origin(*p).x == Approx(71.5f).margin(1e-4));
}

TEST_CASE(
    "CObjCell::check_entry_restrictions 0x0052B6D0: only a player-flagged mover is restricted, and no mover is refused",
    "[retail][sim]") {
  Housing h;
  ObjCell* cell = h.landscape.get_cell(kRestricted);
  SECTION("a creature that is not a player walks in") {
    WeenieTraits creature;
    creature.is_creature = true;
    auto c = h.walker(0x80000001, {70, 60, 10}, creature);
    walk(*c, 12, {0.25f, 0, 0});
    CHECK(c->position().objcell_id == kRestricted);
    CHECK(h.effects.plays.empty());
  }
  SECTION("an object without a weenie walks in") {
    auto o = h.walker(0x80000002, {70, 60, 10}, std::nullopt);
    walk(*o, 12, {0.25f, 0, 0});
    CHECK(o->position().objcell_id == kRestricted);
  }
  SECTION("a transition without an object collides") {
    auto t = transition_for(h, nullptr, at({70, 60, 10}, kStart));
    CHECK(cell->check_entry_restrictions(*t) == TransitionState::Collided);
    CHECK_FALSE(t->collision_info.collision_normal_valid);
  }
  SECTION("an unrestricted cell lets a stranger in") {
    cell->set_restriction_obj(0);
    auto p = h.walker(0x50000009, {70, 60, 10}, player_weenie());
    walk(*p, 12, {0.25f, 0, 0});
    CHECK(p->position().objcell_id == kRestricted);
  }
}

TEST_CASE(
    "CEnvCell::find_env_collisions 0x0052C130 refuses a restricted room and CEnvCell::handle_move_restriction "
    "0x0052C1C0 leaves the normal (CObjCell::check_entry_restrictions 0x0052B6D0)",
    "[retail][sim]") {
  Housing h(true);
  h.landscape.get_cell(kRestricted)->set_restriction_obj(0);
  ObjCell* room_cell = h.landscape.get_cell(kRoom);
  REQUIRE(room_cell != nullptr);
  room_cell->set_restriction_obj(kHouse);
  auto p = h.walker(0x50000009, {57, 62, 10}, player_weenie());
  auto t = transition_for(h, p.get(), p->position());
  t->collision_info.set_collision_normal(glm::vec3(0, 0, 1));
  CHECK(room_cell->check_entry_restrictions(*t) == TransitionState::Collided);
  CHECK(t->collision_info.collision_normal == glm::vec3(0, 0, 1));
  auto fresh = transition_for(h, p.get(), p->position());
  CHECK(room_cell->handle_move_restriction(*fresh));
  CHECK_FALSE(fresh->collision_info.collision_normal_valid);
  // Walking at the doorway: stopped outside the room (a stranger), let in as the owner.
  walk(*p, 16, {0.25f, 0, 0});
  CHECK(p->position().objcell_id == kStart);
  CHECK(origin(*p).x < 60.0f);
  auto owner = h.walker(kOwner, {57, 62, 10}, player_weenie());
  walk(*owner, 16, {0.25f, 0, 0});
  CHECK(owner->position().objcell_id == kRoom);
}

TEST_CASE(
    "CLandBlockInfo::GetRestrictionIID 0x0052EF70 and CLandBlock::init_static_objs 0x00530A40 give the table's land "
    "cells their restriction objects",
    "[retail][sim]") {
  dat::LandBlockInfo info;
  info.pack_flags = dat::kLandBlockInfoHasRestrictions;
  info.restrictions = {{0xA9B4001B, kHouse},
                       {0xA9B40001, 0x7A9B4002},
                       {0xAAB40005, 0x7AAB4001},
                       {0xA9B4001B, 0x7A9B4009},
                       {0xA9B40002, 0}};
  CHECK(get_restriction_iid(info, 0xA9B4001B) == kHouse);  // the first of a repeated key
  CHECK(get_restriction_iid(info, 0xA9B40001) == 0x7A9B4002);
  CHECK(get_restriction_iid(info, 0xA9B40003) == 0);
  dat::LandBlockInfo no_table = info;
  no_table.pack_flags = 0;
  CHECK(get_restriction_iid(no_table, 0xA9B4001B) == 0);

  Landscape landscape;
  REQUIRE(landscape.add_block(flat_block(0xA9B4FFFF)));
  landscape.get_cell(0xA9B40002)->set_restriction_obj(0x7A9B4005);  // a 0 in the table keeps it
  landscape.init_restrictions(0xA9B4FFFF, info);
  CHECK(landscape.get_cell(0xA9B4001B)->restriction_obj() == kHouse);
  CHECK(landscape.get_cell(0xA9B40001)->restriction_obj() == 0x7A9B4002);
  CHECK(landscape.get_cell(0xA9B40002)->restriction_obj() == 0x7A9B4005);
  CHECK(landscape.get_cell(0xA9B40003)->restriction_obj() == 0);
  CHECK(landscape.get_cell(0xA9B40040)->restriction_obj() == 0);
  // A block not loaded: nothing (and nothing is loaded).
  landscape.init_restrictions(0xAAB4FFFF, info);
  CHECK(landscape.loaded_blocks() == std::vector<std::uint32_t>{0xA9B4FFFF});
}

TEST_CASE("A CreateObject's WeenieDesc gives the weenie its bitfield, house owner, RestrictionDB, pscript and monarch",
          "[sim]") {
  World w;
  w.start();
  protocol::CreateObject m = create(kHouse, 1);
  m.weenie.object_description_flags = kAdmin | kImmune | 0x8;
  m.weenie.house_owner = kOwner;
  protocol::HouseRestrictions wire;
  wire.monarch_guid = kMonarch;
  wire.entries = {{kGuest, 1}};
  m.weenie.house_restrictions = wire;
  m.weenie.pscript = static_cast<std::uint16_t>(kRestrictionType);
  m.weenie.monarch = kMonarch;
  w.handle(m);
  const auto& traits = w.object(kHouse).weenie();
  REQUIRE(traits);
  CHECK(traits->bitfield == (kAdmin | kImmune | 0x8));
  CHECK(traits->house_owner_iid == kOwner);
  REQUIRE(traits->db);
  CHECK(traits->db->monarch_iid == kMonarch);
  CHECK(traits->db->table.at(kGuest) == 1);
  CHECK(traits->pscript == kRestrictionType);
  CHECK(traits->monarch == kMonarch);
  CHECK(w.object(kHouse).weenie_can_bypass_move_restrictions());
  // Without the fields: none.
  protocol::CreateObject plain = create(0x7A9B4003, 1);
  w.handle(plain);
  const auto& none = w.object(0x7A9B4003).weenie();
  REQUIRE(none);
  CHECK(none->house_owner_iid == 0);
  CHECK_FALSE(none->db);
  CHECK(none->pscript == 0);
  CHECK(none->monarch == 0);
}

TEST_CASE("WTimeStamper::UpdateHouseRestrictionTS 0x006B2990 takes a stamp unless it is older, wrapping past 127",
          "[retail][sim]") {
  std::uint8_t stamp = 0;
  CHECK(update_house_restriction_ts(stamp, 0));  // equal: taken
  CHECK(update_house_restriction_ts(stamp, 5));
  CHECK(stamp == 5);
  CHECK_FALSE(update_house_restriction_ts(stamp, 4));
  CHECK(stamp == 5);
  CHECK(update_house_restriction_ts(stamp, 132));  // 127 ahead: newer
  CHECK(stamp == 132);
  CHECK(update_house_restriction_ts(stamp, 4));  // 128 behind: wrapped, newer
  CHECK(stamp == 4);
  CHECK_FALSE(update_house_restriction_ts(stamp, 200));  // 196 ahead: wrapped, older
  CHECK(stamp == 4);
}

TEST_CASE(
    "ClientHousingSystem::Handle_House__Recv_UpdateRestrictions 0x005859E0 replaces a house's RestrictionDB by its "
    "stamp (ACCWeenieObject::UpdateHouseRestrictionTS 0x0058CB50, ACCWeenieObject::SetRestrictions 0x005858A0)",
    "[retail][sim]") {
  World w;
  w.start(kPlayer);
  protocol::CreateObject m = create(kHouse, 1);
  m.weenie.house_owner = kOwner;
  protocol::HouseRestrictions closed;
  closed.entries = {{kGuest, 0}};
  m.weenie.house_restrictions = closed;
  w.handle(m);
  protocol::UpdateRestrictions update;
  update.object = kHouse;
  update.timestamp = 3;
  update.db.open_status = 1;
  CHECK(w.box.handle_update_restrictions(update));
  REQUIRE(w.object(kHouse).weenie()->db);
  CHECK(w.object(kHouse).weenie()->db->bitmask == 1);
  CHECK(w.object(kHouse).weenie()->db->table.empty());
  CHECK(w.object(kHouse).weenie()->house_ts == 3);
  // An older stamp is refused.
  update.timestamp = 2;
  update.db.open_status = 0;
  CHECK_FALSE(w.box.handle_update_restrictions(update));
  CHECK(w.object(kHouse).weenie()->db->bitmask == 1);
  // A CreateObject of the same generation keeps the stamp (the weenie stays).
  w.handle(m);
  CHECK(w.object(kHouse).weenie()->house_ts == 3);
  CHECK_FALSE(w.box.handle_update_restrictions(update));
  // Object 0, the player, an unknown object and an object without a weenie: nothing.
  update.timestamp = 9;
  update.object = 0;
  CHECK_FALSE(w.box.handle_update_restrictions(update));
  update.object = kPlayer;
  CHECK_FALSE(w.box.handle_update_restrictions(update));
  update.object = 0x7A9B4077;
  CHECK_FALSE(w.box.handle_update_restrictions(update));
  w.object(kHouse).set_weenie(std::nullopt);
  update.object = kHouse;
  CHECK_FALSE(w.box.handle_update_restrictions(update));
}
