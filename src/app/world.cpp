#include "dereth/app/world.hpp"

#include <chrono>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "dereth/app/qa_report.hpp"
#include "dereth/core/log.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/xp_table.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/digest.hpp"
#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"
#include "dereth/sim/object/viewer.hpp"

#include "landscape_view.hpp"

namespace dereth::app {

namespace {

// Stored cell ids (their low halves) as full ids in `id`'s landblock
// (block_mask | each, as CEnvCell::UnPack and CBldPortal::UnPack form them).
std::vector<std::uint32_t> block_cells(std::uint32_t id, std::span<const std::uint16_t> cells) {
  std::vector<std::uint32_t> out;
  out.reserve(cells.size());
  for (const std::uint16_t c : cells) out.push_back((id & 0xFFFF0000u) | c);
  return out;
}

// One handler per alternative of a std::visit.
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

core::Frame to_core_frame(const dat::Frame& f) { return core::Frame(f.origin, f.orientation); }

// A record of `dat`, or none (absent; an unreadable one is logged).
template <class T, class Read>
std::optional<T> read_record(const dat::DatFile* dat, dat::Did id, const char* what, Read read) {
  if (dat == nullptr) return std::nullopt;
  auto entry = dat->find(id);
  if (!entry || !entry->has_value()) return std::nullopt;
  auto bytes = dat->read(**entry);
  if (!bytes) {
    core::logger(core::Module::App)->warn("{} {:08X}: {}", what, id, bytes.error().message());
    return std::nullopt;
  }
  auto record = read(*bytes, id);
  if (!record) {
    core::logger(core::Module::App)->warn("{} {:08X}: {}", what, id, record.error().message());
    return std::nullopt;
  }
  return std::move(*record);
}

// The EnvCells of the cell DAT over the portal DAT's Environments
// (CEnvCell::UnPack and CEnvCell::init_structure): each CellStruct's trees
// are built and checked once and shared by the cells that use it.
class EnvCellReader {
 public:
  EnvCellReader(const dat::DatFile* cell, const dat::DatFile* portal) : cell_(cell), portal_(portal) {}

  std::unique_ptr<sim::EnvCell> operator()(std::uint32_t cell_id) {
    auto env_cell = read_record<dat::EnvCell>(cell_, cell_id, "EnvCell", dat::read_env_cell);
    if (!env_cell) return nullptr;
    const dat::Did env_id = env_cell->environment_did();
    const std::uint64_t key = (static_cast<std::uint64_t>(env_id) << 16) | env_cell->cell_struct;
    auto it = structures_.find(key);
    if (it == structures_.end()) {
      std::shared_ptr<const sim::CellStructPhysics> built;
      if (auto env = read_record<dat::Environment>(portal_, env_id, "Environment", dat::read_environment)) {
        if (const dat::CellStruct* cs = dat::find_cell_struct(*env, env_cell->cell_struct)) {
          const std::string context = fmt::format("DAT 0x{:08X} cell struct {}", env_id, env_cell->cell_struct);
          if (auto physics = sim::CellStructPhysics::build(*cs, context)) {
            built = std::make_shared<const sim::CellStructPhysics>(std::move(*physics));
          } else {
            core::logger(core::Module::App)->warn("EnvCell {:08X} is not solid: {}", cell_id, physics.error().message());
          }
        } else {
          core::logger(core::Module::App)->warn("EnvCell {:08X}: Environment {:08X} has no cell struct {}", cell_id,
                                                env_id, env_cell->cell_struct);
        }
      }
      it = structures_.emplace(key, std::move(built)).first;
    }
    if (!it->second) return nullptr;
    std::vector<sim::CellPortal> portals;
    portals.reserve(env_cell->portals.size());
    for (const dat::CellPortal& p : env_cell->portals) {
      portals.push_back(sim::CellPortal::unpack(p, cell_id & 0xFFFF0000u, *it->second));
    }
    const sim::Position pos{cell_id, to_core_frame(env_cell->position)};
    auto out = std::make_unique<sim::EnvCell>(cell_id, pos, it->second, std::move(portals));
    out->set_static_objects(std::move(env_cell->static_objects));
    // CEnvCell::UnPack: the visible cells, in this landblock; flag 1.
    out->set_stab_list(block_cells(cell_id, env_cell->visible_cells));
    out->set_seen_outside((env_cell->flags & dat::env_cell_flags::kSeenOutside) != 0);
    // CEnvCell::UnPack: the record's restriction object (flag 8), else 0.
    out->set_restriction_obj(env_cell->restriction_obj);
    return out;
  }

 private:
  const dat::DatFile* cell_;
  const dat::DatFile* portal_;
  std::map<std::uint64_t, std::shared_ptr<const sim::CellStructPhysics>> structures_;
};

// A landblock's buildings from its LandBlockInfo (CLandBlock::init_buildings,
// CBuildingObj::makeBuilding): the model's first part with its physics BSP.
// A GfxObj model is that part at the building's frame; a Setup's first part
// stands at its Resting (else Default) placement frame within it.
std::vector<sim::Building> read_buildings(const dat::DatFile* cell, sim::DatObjectFactory& factory,
                                          dat::RecordCache& records, std::uint32_t block_id) {
  std::vector<sim::Building> out;
  const dat::Did info_id = (block_id & 0xFFFF0000u) | 0xFFFEu;
  auto info = read_record<dat::LandBlockInfo>(cell, info_id, "LandBlockInfo", dat::read_land_block_info);
  if (!info) return out;
  for (const dat::BuildingInfo& b : info->buildings) {
    sim::Building building;
    building.pos = sim::Position{block_id & 0xFFFF0000u, to_core_frame(b.frame)};
    std::uint32_t gfx = b.model_id;
    if ((b.model_id >> 24) == 0x02u) {
      const auto setup = records.setup(b.model_id);
      gfx = setup && !setup->parts.empty() ? setup->parts.front() : 0;
      const dat::AnimationFrame* placed = nullptr;
      if (setup) {
        for (const dat::SetupPlacement& p : setup->placement_frames) {
          if (p.key == 0x65u || (p.key == 0 && placed == nullptr)) placed = &p.frame;
        }
      }
      if (placed != nullptr && !placed->part_frames.empty()) {
        building.pos.frame = core::Frame::combine(building.pos.frame, to_core_frame(placed->part_frames.front()));
      }
    }
    building.physics = factory.get_gfx_obj_physics(gfx);
    for (const dat::BuildingPortal& p : b.portals) {
      // CBldPortal::UnPack 0x0053BC40
      building.portals.push_back(sim::BuildingPortal{(block_id & 0xFFFF0000u) | p.other_cell_id, p.other_portal_id,
                                                     (p.flags & 2u) == 0, block_cells(block_id, p.stab_list)});
    }
    out.push_back(std::move(building));
  }
  return out;
}

}  // namespace

World::World(const core::Clock& clock, const dat::DatFile* portal, std::uint32_t seed)
    : records_(portal),
      portal_(portal),
      context_(clock, seed),
      effects_(portal != nullptr ? &records_ : nullptr),
      factory_(portal != nullptr ? std::make_unique<sim::DatObjectFactory>(records_) : nullptr),
      box_(context_),
      snapshot_(std::make_shared<const sim::RenderSnapshot>()),
      smart_box_ui_(seed) {
  context_.set_effects(&effects_);
  if (factory_) context_.set_factory(factory_.get());
  box_.set_trace_sink(&counter_);
  box_.set_cell_manager(&cell_manager_);
  effects_.set_trace_sink(&effects_forward_);
}

World::~World() = default;

bool World::use_terrain(const dat::DatFile* cell) {
  constexpr dat::Did kRegionId = 0x13000000;
  if (portal_ == nullptr || cell == nullptr) return false;
  auto bytes = portal_->read(kRegionId);
  if (!bytes) {
    core::logger(core::Module::App)->warn("no terrain collision: {}", bytes.error().message());
    return false;
  }
  auto region = dat::read_region(*bytes, kRegionId);
  if (!region) {
    core::logger(core::Module::App)->warn("no terrain collision: {}", region.error().message());
    return false;
  }
  auto loader = [cell, defs = region->land_defs](std::uint32_t block_id) -> std::optional<sim::LandBlockStruct> {
    auto entry = cell->find(block_id);
    if (!entry || !entry->has_value()) return std::nullopt;  // absent: nothing to stand on there
    auto block = cell->read(**entry);
    if (!block) {
      core::logger(core::Module::App)->warn("landblock {:08X}: {}", block_id, block.error().message());
      return std::nullopt;
    }
    auto built = sim::LandBlockStruct::build(*block, block_id, defs, kRegionId);
    if (!built) {
      core::logger(core::Module::App)->warn("landblock {:08X}: {}", block_id, built.error().message());
      return std::nullopt;
    }
    return std::move(*built);
  };
  sim::Landscape::BuildingLoader buildings;
  if (factory_) {
    buildings = [cell, factory = factory_.get(), records = &records_](std::uint32_t block_id) {
      return read_buildings(cell, *factory, *records, block_id);
    };
  }
  statics_.clear();  // their shadows leave the old landscape's cells first
  static_blocks_.clear();
  static_env_cells_.clear();
  landscape_view_.reset();
  landscape_ = std::make_unique<sim::Landscape>(std::move(loader), EnvCellReader(cell, portal_), std::move(buildings));
  if (factory_) {
    landscape_->set_init_static_objs([this, cell](std::uint32_t block_id) { init_static_objs(cell, block_id); });
    landscape_->set_env_init_static_objects([this](sim::EnvCell& env_cell) { init_env_static_objects(env_cell); });
  }
  landscape_->set_env_cell_freed([this](std::uint32_t cell_id) { release_env_static_objects(cell_id); });
  landscape_->set_block_released([this](std::uint32_t block_id) { release_static_objects(block_id); });
  landscape_->set_block_coarsened([this](std::uint32_t block_id) { release_static_objects(block_id); });
  landscape_->set_obj_maint(context_.obj_maint);
  cell_manager_.set_landscape(landscape_.get());
  context_.cells = landscape_.get();
  return true;
}

// CLandBlock::init_static_objs 0x00530A40
void World::init_static_objs(const dat::DatFile* cell, std::uint32_t block_id) {
  const std::uint32_t key = block_id & 0xFFFF0000u;
  if (!static_blocks_.contains(key)) {
    static_blocks_.insert(key);
    load_static_objects(cell, block_id);
    return;
  }
  // The block's land statics.
  recompute_statics([key](std::uint32_t cell_id) {
    return (cell_id & 0xFFFF0000u) == key && (cell_id & 0xFFFFu) < 0x100u;
  });
}

void World::recompute_statics(const std::function<bool(std::uint32_t cell_id)>& in_scope) {
  for (const auto& obj : statics_) {
    const sim::ObjCell* c = obj->cell();
    if (c == nullptr || !in_scope(c->id())) continue;
    if (!obj->is_completely_visible()) obj->calc_cross_cells_static();
  }
}

// CLandBlock::init_static_objs 0x00530A40 (a block with none made): each
// stab made as a static object (CPhysicsObj::makeObject 0x00513970, not
// dynamic) in the land cell holding its origin, at its frame as it stands;
// one off the block is dropped; then the land cells' restriction objects.
void World::load_static_objects(const dat::DatFile* cell, std::uint32_t block_id) {
  const std::uint32_t key = block_id & 0xFFFF0000u;
  auto info = read_record<dat::LandBlockInfo>(cell, key | 0xFFFEu, "LandBlockInfo", dat::read_land_block_info);
  if (!info) return;
  auto view = landscape_view_ ? std::make_shared<sim::LandscapeSnapshot>(*landscape_view_)
                              : std::make_shared<sim::LandscapeSnapshot>();
  append_landscape_view(cell, records_, block_id, *info, *view);
  landscape_view_ = std::move(view);
  for (const dat::Stab& stab : info->objects) {
    auto obj = make_static_object(stab.id);
    if (!obj) continue;
    std::uint32_t cell_id = key | 0xFFFFu;
    glm::vec3 origin = stab.frame.origin;
    if (!sim::LandDefs::adjust_to_outside(cell_id, origin) || (cell_id & 0xFFFF0000u) != key) continue;
    sim::ObjCell* land_cell = landscape_->get_cell(cell_id);
    if (land_cell == nullptr) continue;
    obj->add_obj_to_cell(*land_cell, to_core_frame(stab.frame));
    statics_.push_back(std::move(obj));
  }
  landscape_->init_restrictions(block_id, *info);
}

void World::release_static_objects(std::uint32_t block_id) {
  const std::uint32_t key = block_id & 0xFFFF0000u;
  static_blocks_.erase(key);
  const auto in_block = [key](std::uint32_t cell_id) { return (cell_id & 0xFFFF0000u) == key; };
  // The block's own statics; an EnvCell's go with the cell.
  std::erase_if(statics_, [&](const std::unique_ptr<sim::PhysicsObj>& obj) {
    return obj->cell() != nullptr && in_block(obj->cell()->id()) && (obj->cell()->id() & 0xFFFFu) < 0x100u;
  });
  if (!landscape_view_) return;
  auto view = std::make_shared<sim::LandscapeSnapshot>(*landscape_view_);
  std::erase_if(view->buildings, [&](const sim::ObjectSnapshot& b) { return in_block(b.cell_id); });
  std::erase_if(view->cells, [&](const sim::CellSnapshot& c) { return in_block(c.cell_id); });
  landscape_view_ = std::move(view);
}

// CellManager::ChangePosition 0x004559B0, not blocking
void World::change_position(const sim::Position& p) { cell_manager_.change_position(p, false); }

std::unique_ptr<sim::PhysicsObj> World::make_static_object(std::uint32_t did) {
  namespace ps = protocol::physics_state;
  auto obj = std::make_unique<sim::PhysicsObj>(context_, 0u, sim::LocalId::None);
  auto parts = factory_->make_part_array(*obj, did);
  if (!parts) return nullptr;
  obj->set_part_array(std::move(parts));
  // CPhysicsObj::InitObjectBegin 0x0050FF80: a static object.
  obj->set_state(obj->state() | ps::Static, false);
  obj->cache_has_physics_bsp();
  return obj;
}

// CEnvCell::Destroy (its static objects)
void World::release_env_static_objects(std::uint32_t cell_id) {
  if (!static_env_cells_.erase(cell_id)) return;
  std::erase_if(statics_, [&](const std::unique_ptr<sim::PhysicsObj>& obj) {
    return obj->cell() != nullptr && obj->cell()->id() == cell_id;
  });
}

// CEnvCell::init_static_objects 0x0052C350: made, each static not
// completely visible recomputes its cells; else each static object the
// cell's record placed, at its frame as it stands.
void World::init_env_static_objects(sim::EnvCell& env_cell) {
  const std::uint32_t id = env_cell.id();
  if (static_env_cells_.contains(id)) {
    recompute_statics([id](std::uint32_t cell_id) { return cell_id == id; });
    return;
  }
  if (env_cell.static_objects().empty()) return;
  static_env_cells_.insert(id);
  for (const dat::Stab& stab : env_cell.static_objects()) {
    auto obj = make_static_object(stab.id);
    if (!obj) continue;
    obj->add_obj_to_cell(env_cell, to_core_frame(stab.frame));
    statics_.push_back(std::move(obj));
  }
}

void World::VerdictCounter::on_message(const sim::MessageRecord& record) {
  const auto index = static_cast<std::size_t>(record.verdict);
  if (index < counts.size()) ++counts[index];
  if (forward != nullptr) forward->on_message(record);
  if (report != nullptr) report->add_verdict(record);
}

void World::EffectsForward::on_script_resolved(sim::LocalId owner, std::uint32_t table, std::uint32_t script_type,
                                               float intensity, std::uint32_t chosen) {
  if (trace != nullptr) trace->on_script_resolved(owner, table, script_type, intensity, chosen);
  if (report != nullptr) report->add_script_lookup(table, script_type, chosen);
}
void World::EffectsForward::on_script_enqueued(sim::LocalId owner, std::uint32_t script, core::Seconds start) {
  if (trace != nullptr) trace->on_script_enqueued(owner, script, start);
}
void World::EffectsForward::on_hook_executed(sim::LocalId owner, dat::HookType type, core::Seconds time) {
  if (trace != nullptr) trace->on_hook_executed(owner, type, time);
}
void World::EffectsForward::on_emitter(sim::LocalId owner, std::uint32_t emitter_info_id, std::uint32_t emitter_id,
                                       sim::EmitterEvent event) {
  if (trace != nullptr) trace->on_emitter(owner, emitter_info_id, emitter_id, event);
}

void World::set_trace(sim::JsonlTrace* trace) noexcept {
  trace_ = trace;
  counter_.forward = trace;
  effects_forward_.trace = trace;
}

void World::set_report(QaReport* report) noexcept {
  report_ = report;
  counter_.report = report;
  effects_forward_.report = report;
}

void World::handle(std::span<const std::uint8_t> bytes, double arrival) {
  if (trace_ != nullptr) trace_->set_arrival(arrival);
  handle(bytes);
  if (trace_ != nullptr) trace_->set_arrival(std::nullopt);
}

std::vector<protocol::ChatLine> World::take_chat() {
  std::vector<protocol::ChatLine> out;
  out.swap(chat_);
  return out;
}

void World::add_local_chat(std::string_view text) {
  protocol::ChatLine line;
  line.chat_type = protocol::chat_type::Transient;
  line.channel = protocol::chat_channel_name(line.chat_type);
  line.text = std::string(text);
  add_chat(std::move(line));
}

// The PlayerDescription's qualities become the player's (CACQualities::UnPack
// 0x00593420 through the skills), and its CharacterOptions1 the player's
// options (CPlayerSystem::Handle_PlayerDescription 0x005636A0 ->
// PlayerModule::UnPack 0x005D49D0) when it carries them.
void World::handle_player_description(const protocol::PlayerDescription& description) {
  auto skills = read_record<dat::SkillTable>(portal_, dat::kSkillTableId, "SkillTable", dat::read_skill_table);
  auto xp = read_record<dat::XpTable>(portal_, dat::kXpTableId, "XpTable", dat::read_xp_table);
  qualities_ = std::make_unique<sim::Qualities>(description, std::move(skills), std::move(xp));
  context_.player_qualities = qualities_.get();
  if (description.options) {
    // PlayerModule::DisableHouseRestrictionEffects 0x005D3160
    context_.disable_house_restriction_effects =
        (description.options->options1 & protocol::character_options1::DisableHouseRestrictionEffects) != 0;
    // PlayerModule::ToggleRun 0x005D2DA0, which the command interpreter's
    // SetHoldRun reads (ACCmdInterp::UITogglesRun 0x0058B180).
    context_.toggle_run = (description.options->options1 & protocol::character_options1::ToggleRun) != 0;
  }
}

void World::assume_player(std::uint32_t guid) { box_.handle(protocol::PlayerCreate{guid}); }

void World::queue_combat_event(std::uint32_t event, std::uint32_t error) {
  if (combat_events_.size() >= kChatBacklog) combat_events_.erase(combat_events_.begin());
  combat_events_.push_back(CombatEvent{event, error});
}

void World::add_chat(protocol::ChatLine line) {
  if (trace_ != nullptr) trace_->write_chat(context_.now(), line.channel, line.sender, line.text);
  if (chat_.size() >= kChatBacklog) chat_.erase(chat_.begin());
  chat_.push_back(std::move(line));
}

void World::handle(std::span<const std::uint8_t> bytes) {
  ++stats_.messages;
  const std::uint32_t opcode = protocol::peek_opcode(bytes);
  if (!protocol::is_object_opcode(opcode)) ++stats_.not_object;
  if (opcode == protocol::login_opcode::GameEvent && !game_event_guid_) {
    game_event_guid_ = protocol::peek_game_event_guid(bytes);
  }
  auto decoded = protocol::decode_message(bytes);
  if (!decoded) {
    // Too short for an opcode: no message at all, not a malformed one.
    if (bytes.size() < sizeof(std::uint32_t)) return;
    // A malformed message is counted and dropped (a PlayerDescription's
    // loss is logged: what was held before is kept).
    ++stats_.decode_errors;
    if (report_ != nullptr) report_->add_decode_error(opcode);
    if (opcode == protocol::login_opcode::GameEvent &&
        protocol::peek_wrapped_type(bytes) == protocol::login_opcode::PlayerDescriptionEvent) {
      core::logger(core::Module::App)->warn("PlayerDescription dropped: {}", decoded.error().message());
    }
    return;
  }
  std::visit(Overloaded{
                 [&](const protocol::PlayerDescription& m) { handle_player_description(m); },
                 [&](const protocol::UpdateRestrictions& m) { box_.handle_update_restrictions(m); },
                 // Kept for the controls' outbound step (take_combat_events):
                 // the combat system reads the player's motion and the
                 // target as they stand after the tick.
                 [&](const protocol::AttackDone& m) {
                   queue_combat_event(protocol::combat_event::AttackDone, m.error);
                 },
                 [&](const protocol::CombatCommenceAttack&) {
                   queue_combat_event(protocol::combat_event::CombatCommenceAttack, 0);
                 },
                 [&](protocol::ChatMessage& m) { add_chat(std::move(m.line)); },
                 [&](const protocol::Unknown&) {},
                 // The object messages: the SmartBox's.
                 [&](const auto&) { handle_object(*decoded); },
             },
             *decoded);
}

void World::handle_object(const protocol::Message& message) {
  ++stats_.handled;
  // The QA report: where dereth had the object when the server's Position came.
  const auto* update = std::get_if<protocol::UpdatePosition>(&message);
  const sim::PhysicsObj* before = update != nullptr && report_ != nullptr ? box_.get_object(update->guid) : nullptr;
  std::optional<sim::Position> predicted;
  std::uint16_t stamp = 0;
  std::uint16_t teleport = 0;
  bool moving = false;
  if (before != nullptr && before->in_cell()) {
    predicted = before->position();
    stamp = before->update_time(protocol::TimestampIndex::Position);
    teleport = before->update_time(protocol::TimestampIndex::Teleport);
    const glm::vec3 v = before->velocity();
    moving = glm::dot(v, v) > 0.0F || before->has_anims();
  }
  box_.handle(message);
  if (predicted) {
    const sim::PhysicsObj* after = box_.get_object(update->guid);
    // Applied, and not a teleport (a new place, not a correction of a prediction).
    if (after != nullptr && after->update_time(protocol::TimestampIndex::Position) != stamp &&
        after->update_time(protocol::TimestampIndex::Teleport) == teleport) {
      const glm::vec3 d = sim::get_offset(*predicted, sim::received_position(update->position).position);
      report_->add_position_error(QaReport::Sample{update->guid, box_.physics().tick_count(),
                                                   context_.now().count(), std::sqrt(glm::dot(d, d)), moving});
    }
  }
}

std::optional<glm::vec3> World::place_viewer(const glm::vec3& pivot, const glm::vec3& wanted) {
  sim::PhysicsObj* player = box_.player();
  if (player == nullptr || context_.cells == nullptr) return std::nullopt;
  // A player in no cell (not yet placed, or lost) has nothing to collide
  // with: the camera keeps its wanted point. Retail puts the viewer on the
  // player then (docs/deviations.md).
  if (player->cell() == nullptr) return std::nullopt;
  const glm::vec3 feet = sim::global_frame(player->position()).origin;
  const sim::Viewer viewer = sim::update_viewer(*context_.cells, *player, pivot - feet, wanted - pivot);
  return sim::global_frame(viewer.position).origin;
}

sim::SnapshotPtr World::build_snapshot() const {
  return sim::build_render_snapshot(box_, effects_, box_.physics().tick_count(), statics_, landscape_view_, sky_time_);
}

// The game clock (sim/player/game_time.hpp): a new TimeSync goes to the Timer
// (ClientNet::HandleTimeSynch), then GameTime::UseTime at the world's time
// gives the sky's time of day and day. Without a TimeSync, or without a
// readable Region, there is none and the renderer keeps its fixed hour.
void World::use_game_time(double now) {
  if (!time_sync_) return;
  if (!game_clock_tried_) {
    game_clock_tried_ = true;
    constexpr dat::Did kRegionId = 0x13000000;
    if (portal_ != nullptr) {
      if (auto bytes = portal_->read(kRegionId)) {
        if (auto region = dat::read_region(*bytes, kRegionId)) game_clock_.emplace(std::move(region->game_time));
      }
    }
  }
  if (!game_clock_) return;
  if (time_sync_ != last_time_sync_) {
    game_clock_->time_sync(*time_sync_, now);
    last_time_sync_ = time_sync_;
  }
  sky_time_ = game_clock_->use_time(now);
}

bool World::step() {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t before = box_.physics().tick_count();
  // Retail drains the inbound blobs at the end of SmartBox::UseTime, so the
  // UI's UseTime sees a new player or teleport before SmartBox::UseTime can
  // complete it; here the frame's messages were handled before step(), so
  // the UI goes first to keep that order.
  if (smart_box_ui_.use_time(box_, context_.now().count())) ++login_completes_due_;
  // SmartBox::UseTime: CellManager::ChangePosition with the player's
  // position, before CObjectMaint::UseTime and the objects' updates.
  if (const sim::PhysicsObj* player = box_.player(); player != nullptr && player->position().objcell_id != 0) {
    change_position(player->position());
  }
  box_.use_time();
  use_game_time(context_.now().count());  // every step, ticked or not: the sky time the next snapshot carries
  const std::uint64_t tick = box_.physics().tick_count();
  stats_.tick_seconds += seconds_since(start);
  if (tick == before) return false;
  ++stats_.ticks;
  const auto snap_start = std::chrono::steady_clock::now();
  snapshot_ = build_snapshot();
  effects_.clear_sound_events();
  stats_.snapshot_seconds += seconds_since(snap_start);
  if (trace_ != nullptr) trace_->write_tick(tick, context_.now(), box_);
  return true;
}

}  // namespace dereth::app
