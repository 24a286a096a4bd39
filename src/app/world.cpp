#include "dereth/app/world.hpp"

#include <chrono>
#include <type_traits>

#include "dereth/app/qa_report.hpp"
#include "dereth/core/log.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/quality_filter.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/xp_table.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/cells/dat_landscape_loader.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/digest.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"
#include "dereth/sim/object/viewer.hpp"

namespace dereth::app {

namespace {

// One handler per alternative of a std::visit.
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

// A message the player's qualities apply (Qualities::apply_update).
template <class M>
concept QualityUpdate = requires(sim::Qualities& q, const M& m) {
  q.apply_update(m);
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

World::World(const core::Clock& clock, const dat::DatFile* portal, std::uint32_t seed)
    : records_(std::make_shared<dat::RecordCache>(portal)),
      portal_(portal),
      context_(clock, seed),
      effects_(portal != nullptr ? records_.get() : nullptr),
      factory_(portal != nullptr ? std::make_unique<sim::DatObjectFactory>(*records_) : nullptr),
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

// The portal's Region (0x13000000), read once per world through its record
// cache: the terrain's LandDefs, the game clock's GameTime and the
// renderer's terrain types and sky come from the one read.
std::shared_ptr<const dat::Region> World::region() {
  return records_->region();
}

bool World::use_terrain(const dat::DatFile* cell, const StreamOptions& streaming) {
  if (portal_ == nullptr || cell == nullptr) return false;
  const auto region = this->region();
  if (!region) {
    const auto missing = records_->find_missing("Region", dat::kRegionId);
    core::logger(core::Module::App)
        ->warn("no terrain collision: Region 0x{:08X}: {}", dat::kRegionId, missing.has_value() ? missing->why : "");
    return false;
  }
  // The old statics' shadows leave the old landscape's cells first.
  landscape_loader_.reset();
  cell_records_ = std::make_shared<dat::CellRecordCache>(cell);
  auto loader = std::make_unique<sim::DatLandscapeLoader>(
      *cell_records_, region->land_defs, region->id, *records_, *factory_, context_,
      streaming.make_executor ? streaming.make_executor() : sim::make_stream_executor(streaming.workers));
  landscape_ = std::make_unique<sim::Landscape>(loader.get());
  loader->set_landscape(*landscape_);
  landscape_loader_ = std::move(loader);
  landscape_->set_obj_maint(context_.obj_maint);
  cell_manager_.set_landscape(landscape_.get());
  cell_manager_.set_blocking_limit(streaming.gate_limit);
  context_.cells = landscape_.get();
  return true;
}

// CellManager::ChangePosition 0x004559B0, not blocking
void World::change_position(const sim::Position& p) {
  cell_manager_.change_position(p, false);
}

const std::vector<sim::PhysicsObj*>& World::static_objects() const noexcept {
  static const std::vector<sim::PhysicsObj*> kNone;
  return landscape_loader_ ? landscape_loader_->static_objects() : kNone;
}

const std::shared_ptr<const sim::LandscapeSnapshot>& World::landscape_view() const noexcept {
  static const std::shared_ptr<const sim::LandscapeSnapshot> kNone;
  return landscape_loader_ ? landscape_loader_->view() : kNone;
}

void World::handle(std::span<const std::uint8_t> bytes, double arrival) {
  if (trace_ != nullptr) trace_->set_arrival(arrival);
  handle(bytes);
  if (trace_ != nullptr) trace_->set_arrival(std::nullopt);
}

void World::add_local_chat(std::string_view text) {
  add_chat(local_chat_line(text));
}

// The PlayerDescription's qualities become the player's (CACQualities::UnPack
// 0x00593420 through the skills), and its CharacterOptions1 the player's
// options (CPlayerSystem::Handle_PlayerDescription 0x005636A0 ->
// PlayerModule::UnPack 0x005D49D0) when it carries them.
void World::handle_player_description(const protocol::PlayerDescription& description) {
  // Each table is read once per world (the cache's); the qualities keep their own copies.
  const auto skills = records_->skill_table();
  const auto xp = records_->xp_table();
  qualities_ =
      std::make_unique<sim::Qualities>(description, skills ? std::optional<dat::SkillTable>(*skills) : std::nullopt,
                                       xp ? std::optional<dat::XpTable>(*xp) : std::nullopt);
  // The vitals' maxima (CACQualities::InqAttribute2nd) need the VitalTable.
  if (const auto vitals = records_->vital_table()) qualities_->set_vital_table(*vitals);
  // The vitals enchantments may change (ACQualityFilter, CEnchantmentRegistry::EnchantAttribute2nd).
  if (const dat::DatFile* portal = records_->portal(); portal != nullptr) {
    if (auto bytes = portal->read(dat::kEnchantableFilterId)) {
      if (auto filter = dat::read_quality_filter(*bytes, dat::kEnchantableFilterId)) {
        qualities_->set_quality_filter(std::move(*filter));
      } else {
        core::logger(core::Module::App)->warn("QualityFilter not read: {}", filter.error().message());
      }
    }
  }
  context_.player_qualities = qualities_.get();
  player_module_.unpack(description);
  context_.disable_house_restriction_effects = player_module_.disable_house_restriction_effects();
  context_.toggle_run = player_module_.toggle_run();
  spell_notices_.push_back({SpellNotice::Kind::PlayerDescReceived, 0});
}

void World::assume_player(std::uint32_t guid) {
  box_.handle(protocol::PlayerCreate{guid});
}

void World::add_chat(protocol::ChatLine line) {
  if (trace_ != nullptr) trace_->write_chat(context_.now(), line.channel, line.sender, line.text);
  chat_.push(std::move(line));
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
                 // ClientCombatSystem::HandleAttackDoneEvent 0x0056C500 and
                 // HandleCommenceAttackEvent, from the message's dispatch.
                 [&](const protocol::AttackDone& m) {
                   if (combat_ != nullptr) combat_->handle_attack_done_event(m.error);
                 },
                 [&](const protocol::CombatCommenceAttack&) {
                   if (combat_ != nullptr) combat_->handle_commence_attack_event();
                 },
                 [&](const protocol::QueryHealthResponse& m) {
                   toolbar_.recv_notice_update_object_health(m.target, m.health);
                 },
                 // ClientMagicSystem::Handle_Magic__UpdateSpell 0x005677F0 and
                 // Handle_Magic__RemoveSpell 0x00567890: the spell book changed
                 // (CACQualities::AddSpell / RemoveSpell), then the notice; nothing
                 // before the PlayerDescription (no PlayerDesc to change).
                 [&](const protocol::MagicUpdateSpell& m) {
                   if (!qualities_) return;
                   qualities_->add_spell(m.spell);
                   spell_notices_.push_back({SpellNotice::Kind::SpellAdded, m.spell});
                 },
                 [&](const protocol::MagicRemoveSpell& m) {
                   if (!qualities_) return;
                   qualities_->remove_spell(m.spell);
                   spell_notices_.push_back({SpellNotice::Kind::SpellRemoved, m.spell});
                 },
                 [&](const protocol::UseDone& m) {
                   if (auto line = protocol::use_done_line(m)) add_chat(std::move(*line));
                 },
                 [&](const protocol::PlayerKilled& m) {
                   if (auto line = sim::handle_player_death_event(m, box_.player_id())) add_chat(std::move(*line));
                 },
                 [&](protocol::ChatMessage& m) { add_chat(std::move(m.line)); },
                 [&](const protocol::Unknown&) {},
                 // The player's own stat and enchantment updates (sim/player keeps
                 // them); the object messages: the SmartBox's.
                 [&](const auto& m) {
                   if constexpr (QualityUpdate<std::decay_t<decltype(m)>>) {
                     if (qualities_) qualities_->apply_update(m);
                   } else {
                     handle_object(*decoded);
                   }
                 },
             },
             *decoded);
}

void World::handle_object(const protocol::Message& message) {
  ++stats_.handled;
  // The QA report: where dereth had the object when the server's Position came.
  const auto* update = std::get_if<protocol::UpdatePosition>(&message);
  const auto probe = update != nullptr && report_ != nullptr ? PositionProbe::before(box_, *update) : std::nullopt;
  box_.handle(message);
  if (probe) probe->after(box_, *report_, context_.now().count());
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
  return sim::build_render_snapshot(box_, effects_, box_.physics().tick_count(), static_objects(), landscape_view(),
                                    sky_clock_.sky_time(), &smart_box_ui_, &snapshots_);
}

bool World::step() {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t before = box_.physics().tick_count();
  // Retail drains the inbound blobs at the end of SmartBox::UseTime, so the
  // UI's UseTime sees a new player or teleport before SmartBox::UseTime can
  // complete it; here the frame's messages were handled before step(), so
  // the UI goes first to keep that order.
  if (smart_box_ui_.use_time(box_, context_.now().count())) ++login_completes_due_;
  // The landblocks the workers built since the last step are published
  // between ticks (docs/streaming.md); nothing when they load inline.
  if (landscape_loader_) landscape_loader_->streamer().drain();
  // SmartBox::UseTime: CellManager::ChangePosition with the player's
  // position (unless blocking_for_cells), before CObjectMaint::UseTime and
  // the objects' updates.
  box_.use_time();
  sky_clock_.use_time(context_.now().count(), *records_);  // every step, ticked or not: the next snapshot's sky time
  const std::uint64_t tick = box_.physics().tick_count();
  stats_.tick_seconds += seconds_since(start);
  if (tick == before) {
    // Blocking for streamed cells, the physics waits but portal space goes
    // on: the snapshot carries gmSmartBoxUI's animation as it advanced.
    if (cell_manager_.blocking_for_cells()) snapshot_ = build_snapshot();
    return false;
  }
  ++stats_.ticks;
  const auto snap_start = std::chrono::steady_clock::now();
  snapshot_ = build_snapshot();
  effects_.clear_sound_events();
  stats_.snapshot_seconds += seconds_since(snap_start);
  if (trace_ != nullptr) trace_->write_tick(tick, context_.now(), box_);
  return true;
}

}  // namespace dereth::app
