#pragma once
// The client's world for one session: the SmartBox and PhysicsObj loop
// (dereth_sim) with the DAT-driven factory and effects over one record cache,
// on an injected clock.
// The frame loop feeds it messages in arrival order and asks it for the
// render snapshot after each physics tick (docs/architecture.md, steps 2-4).
// Defined in world.cpp (construction, the inbound table, the step) and
// world_trace.cpp (the verdict and effect events to the trace and QA report).

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dereth/app/chat.hpp"
#include "dereth/app/frame_hooks.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/dat/cell_record_cache.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/cells/cell_manager.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/cells/stream_executor.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"
#include "dereth/sim/object/verdict.hpp"
#include "dereth/sim/player/client_combat_system.hpp"
#include "dereth/sim/player/game_clock.hpp"
#include "dereth/sim/player/gm_smart_box_ui.hpp"
#include "dereth/sim/player/gm_toolbar_ui.hpp"
#include "dereth/sim/player/player_module.hpp"
#include "dereth/sim/player/qualities.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {
class DatLandscapeLoader;
class DatObjectFactory;
class JsonlTrace;
}  // namespace dereth::sim

namespace dereth::app {

class QaReport;

struct WorldStats {
  std::uint64_t messages = 0;       // server messages offered
  std::uint64_t handled = 0;        // decoded and given to the SmartBox
  std::uint64_t not_object = 0;     // opcodes the SmartBox does not take
  std::uint64_t decode_errors = 0;  // malformed: dropped and counted
  std::uint64_t ticks = 0;
  double snapshot_seconds = 0.0;  // wall time spent building snapshots (frame-time report)
  double tick_seconds = 0.0;      // wall time spent in use_time
};

inline constexpr std::size_t kVerdictCount = 12;
using VerdictCounts = std::array<std::uint64_t, kVerdictCount>;  // by sim::Verdict, replays included

// How the landscape's records load (docs/streaming.md).
struct StreamOptions {
  // Worker threads reading and decoding landblocks; 0: inline, each read
  // as LScape asks for it (deterministic: headless, replays, tests).
  int workers = 0;
  // Seconds of sim time the teleport gate (CellManager's
  // blocking_for_cells) waits before it gives up loudly; 0: never.
  double gate_limit = 20.0;
  // What runs the builds instead of `workers`' (tests: a sim::ManualExecutor
  // that holds them until the test runs them, to drive the generation races
  // through a window); unset: `workers` decides.
  std::function<std::unique_ptr<sim::StreamExecutor>()> make_executor;
};

class World final : public ViewerPlacer {
 public:
  // `portal` may be null (no DAT data: objects have no parts, nothing
  // resolves); it must outlive the world. `clock` is read, never owned.
  World(const core::Clock& clock, const dat::DatFile* portal, std::uint32_t seed = 1);
  // Objects collide with the terrain of `cell`'s landblocks (loaded as the
  // grid around the load point reaches them: change_position) through the Region's height table from the portal. False,
  // and no collision, without a portal, a cell file or a readable Region.
  bool use_terrain(const dat::DatFile* cell, const StreamOptions& streaming = {});
  // The landblock streamer (null before use_terrain): its stats, and the
  // renderer's readiness hook (set_render_ready).
  [[nodiscard]] sim::DatLandscapeLoader* landscape_loader() noexcept { return landscape_loader_.get(); }
  [[nodiscard]] const sim::CellManager& cell_manager() const noexcept { return cell_manager_; }
  // The portal's Region, read through records() the first time it is asked
  // for and kept (null when there is no portal DAT or its Region does not
  // read: records().find_missing says why). The renderer draws with it too.
  std::shared_ptr<const dat::Region> region();
  [[nodiscard]] const sim::Landscape* landscape() const noexcept { return landscape_.get(); }
  // The kept grid's radius in landblocks (LScape::SetMidRadius); false when
  // refused (below 1, no terrain, or a load point already set).
  bool set_mid_radius(int radius) noexcept { return landscape_ && landscape_->set_mid_radius(radius); }
  // CellManager::ChangePosition 0x004559B0 (not blocking), which
  // SmartBox::UseTime runs each tick with the player's position before the
  // objects move (unless blocking_for_cells): when the position's cell changed or was not
  // found, an outdoor cell centres the grid on itself (LScape's blocks only
  // load so: nothing loads before it), an EnvCell on the outside cell under
  // it when it is seen from outside (else the landscape is released), and
  // the cell's visible EnvCells are kept (sim::CellManager). A cell 0
  // releases the landscape (CellManager::Reset). The SmartBox runs the
  // blocking form (the landscape released at once) at the player's
  // CreateObject and at teleports.
  void change_position(const sim::Position& p);
  // The static objects of the loaded landblocks and visible EnvCells (their
  // records' stabs), made as each is grabbed (sim::DatLandscapeLoader):
  // obstacles, not server objects (not in the SmartBox, its digests or traces).
  [[nodiscard]] const std::vector<sim::PhysicsObj*>& static_objects() const noexcept;
  // The loaded landblocks' buildings and EnvCells as drawn, grown as each
  // block's statics are made and rebuilt without a block's when it is
  // released (every snapshot shares it); null before any block loads.
  [[nodiscard]] const std::shared_ptr<const sim::LandscapeSnapshot>& landscape_view() const noexcept;
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // One server message (opcode first): decoded and handed to the SmartBox;
  // a malformed one is counted and dropped.
  void handle(std::span<const std::uint8_t> bytes);
  // The same, with when the message arrived (seconds since the input's first
  // message: its capture time, or its arrival in a live run), which the trace
  // records beside the frame time the SmartBox handles it at.
  void handle(std::span<const std::uint8_t> bytes, double arrival);
  // One frame: gmSmartBoxUI::UseTime (the portal-space teleport animation,
  // which may call for a LoginComplete: take_login_completes), then
  // SmartBox::use_time; when the physics ticked, a new snapshot is built and
  // published. Returns whether it ticked.
  bool step();
  // The LoginCompletes the teleport animation called for since the last
  // call (CPlayerSystem::SendLoginCompleteNotification); whoever owns the
  // session's outbound path sends one 0xF7B1 0x00A1 action for each.
  int take_login_completes() noexcept { return std::exchange(login_completes_due_, 0); }
  // The portal-space teleport animation (world entry, F751 teleports).
  [[nodiscard]] const sim::GmSmartBoxUi& smart_box_ui() const noexcept { return smart_box_ui_; }
  // Writes message verdicts, effects lines and one line per object after
  // every tick to `trace` (docs/trace.md); null stops. Not owned.
  void set_trace(sim::JsonlTrace* trace) noexcept;
  // The render snapshot of the world as it stands (step publishes one after
  // each tick, then forgets the tick's sound events); changes nothing.
  [[nodiscard]] sim::SnapshotPtr build_snapshot() const;
  // The latest published snapshot (an empty one before the first tick).
  [[nodiscard]] const sim::SnapshotPtr& snapshot() const noexcept { return snapshot_; }
  // The server time of the latest TimeSync (ClientNet::HandleTimeSynch): from
  // the next step the game clock (the portal Region's GameTime) follows it on
  // the world's clock, and each snapshot carries its sky time
  // (docs/render.md "Time of day").
  void time_sync(double server_time) noexcept { sky_clock_.time_sync(server_time); }
  // The sky time of the last step (none before a TimeSync, or without a readable Region).
  [[nodiscard]] const std::optional<sim::SkyTime>& sky_time() const noexcept { return sky_clock_.sky_time(); }

  // Where the follow camera may stand: the viewer sphere swept from `pivot`
  // to `wanted` (global metres) through the player's cells
  // (sim::update_viewer, SmartBox::update_viewer 0x00453CE0), in global
  // metres; none without a player or without cells to collide with.
  [[nodiscard]] std::optional<glm::vec3> place_viewer(const glm::vec3& pivot, const glm::vec3& wanted) override;
  [[nodiscard]] sim::SmartBox& box() noexcept { return box_; }
  [[nodiscard]] sim::SimContext& context() noexcept { return context_; }
  [[nodiscard]] sim::Effects& effects() noexcept { return effects_; }
  // The one cache of portal records: the factory, the effects, the audio
  // system, the landscape loader, the player's qualities and the Region read
  // through it.
  [[nodiscard]] dat::RecordCache& records() noexcept { return *records_; }
  [[nodiscard]] const dat::RecordCache& records() const noexcept { return *records_; }
  // The same cache, shared with the renderer (Renderer::set_records) so a
  // GfxObj, Surface or texture is decoded once for both.
  [[nodiscard]] std::shared_ptr<dat::RecordCache> shared_records() const noexcept { return records_; }
  // The cell DAT's records (LandBlocks, LandBlockInfos, EnvCells) the
  // landscape reads, shared with the renderer's terrain
  // (Renderer::set_cell_records) so a loaded block is read once; null before
  // use_terrain.
  [[nodiscard]] std::shared_ptr<dat::CellRecordCache> shared_cell_records() const noexcept { return cell_records_; }
  [[nodiscard]] const WorldStats& stats() const noexcept { return stats_; }
  // Feeds the QA report (position errors, verdicts, decode errors, script
  // lookups); null stops. Not owned.
  void set_report(QaReport* report) noexcept;
  // The chat lines handled since the last call, in order (server text,
  // speech, tells, emotes, channel lines, errors and status strings:
  // protocol::chat_line), for the chat panel and the headless output; at
  // most ChatBacklog::kMax lines are kept between calls.
  std::vector<protocol::ChatLine> take_chat() { return chat_.take(); }
  // The client's own text for the chat window (ClientSystem::AddTextToScroll
  // with log text type 0x1A: the combat system's "You must select a valid
  // combat target before attacking"), queued with the server's lines and
  // written to the trace as they are: channel "transient", no sender.
  void add_local_chat(std::string_view text);
  // The player's combat system (the controls'), which the server's
  // AttackDone (0x01A7) and CombatCommenceAttack (0x01B8) reach as they are
  // handled, as retail's dispatch calls ClientCombatSystem::
  // HandleAttackDoneEvent / HandleCommenceAttackEvent; null: they are
  // dropped. Not owned.
  void set_combat_system(sim::ClientCombatSystem* combat) noexcept { combat_ = combat; }
  // The GUID the first F7B0 game event named: the player, in a capture that
  // starts after world entry (F7B0 events go to the player).
  [[nodiscard]] std::optional<std::uint32_t> game_event_guid() const noexcept { return game_event_guid_; }
  // The player's qualities from the last PlayerDescription (F7B0 0x0013),
  // with the portal's SkillTable and XpTable; null before one arrives. The
  // player's run rate and jump velocity come from them.
  [[nodiscard]] const sim::Qualities* player_qualities() const noexcept { return qualities_.get(); }
  // The spell bars (favourites lists) and shortcuts of the last
  // PlayerDescription, as the player's spell bar has changed them since.
  [[nodiscard]] const sim::PlayerModule& player_module() const noexcept { return player_module_; }
  [[nodiscard]] sim::PlayerModule& player_module() noexcept { return player_module_; }
  // What the spell book's windows are told (CM_Magic's notices): the
  // PlayerDescription arrived (gmSpellcastingUI / gmSpellbookUI::
  // RecvNotice_PlayerDescReceived), a spell was learnt (SendNotice_
  // SpellAdded) or forgotten (SendNotice_SpellRemoved). Taken by whoever
  // owns those windows (the controls), in arrival order.
  struct SpellNotice {
    enum class Kind : std::uint8_t { PlayerDescReceived, SpellAdded, SpellRemoved };
    Kind kind = Kind::PlayerDescReceived;
    std::uint32_t spell = 0;
    bool operator==(const SpellNotice&) const = default;
  };
  std::vector<SpellNotice> take_spell_notices() noexcept { return std::exchange(spell_notices_, {}); }
  // The toolbar's selected-object health, as the server's QueryHealthResponse gives it.
  [[nodiscard]] sim::GmToolbarUi& toolbar() noexcept { return toolbar_; }
  [[nodiscard]] const sim::GmToolbarUi& toolbar() const noexcept { return toolbar_; }
  // Takes `guid` as the player, as a PlayerCreate would (a capture that
  // starts after world entry has none).
  void assume_player(std::uint32_t guid);
  // Every SmartBox verdict so far (docs/trace.md), whether a trace is written or not.
  [[nodiscard]] const VerdictCounts& verdicts() const noexcept { return counter_.counts; }
  // The portal file the world reads (null: none).
  [[nodiscard]] const dat::DatFile* portal() const noexcept { return portal_; }

 private:
  std::shared_ptr<dat::RecordCache> records_;  // never null
  std::shared_ptr<dat::CellRecordCache> cell_records_;
  const dat::DatFile* portal_;
  sim::SimContext context_;
  // The player's qualities (context_.player_qualities points here); before
  // the objects so it outlives them.
  std::unique_ptr<sim::Qualities> qualities_;
  sim::PlayerModule player_module_;
  sim::GmToolbarUi toolbar_;
  // The terrain objects collide with; declared before the SmartBox so the
  // objects (and their shadows) go first.
  std::unique_ptr<sim::Landscape> landscape_;
  // SmartBox::cell_manager (the SmartBox calls its blocking form).
  sim::CellManager cell_manager_;
  sim::Effects effects_;
  std::unique_ptr<sim::DatObjectFactory> factory_;
  sim::SmartBox box_;
  // The landscape's records and its static objects; after the landscape and
  // the factory: it goes first, the statics' shadows leaving the cells, their
  // parts no longer reading the factory.
  std::unique_ptr<sim::DatLandscapeLoader> landscape_loader_;
  // The game clock, made from the Region's GameTime at the first TimeSync.
  sim::SkyClock sky_clock_;
  // The storage each snapshot is built in (a dropped snapshot's, reused).
  mutable sim::SnapshotRecycler snapshots_;
  sim::SnapshotPtr snapshot_;
  // Seeded from the world's seed (its own generator: the tunnel's random
  // rotation never shifts the particles' draws).
  sim::GmSmartBoxUi smart_box_ui_;
  int login_completes_due_ = 0;
  std::vector<SpellNotice> spell_notices_;
  WorldStats stats_;
  sim::ClientCombatSystem* combat_ = nullptr;
  sim::JsonlTrace* trace_ = nullptr;
  // Counts the SmartBox's verdicts and forwards them to the trace and report.
  struct VerdictCounter final : sim::TraceSink {
    void on_message(const sim::MessageRecord& record) override;
    VerdictCounts counts{};
    sim::JsonlTrace* forward = nullptr;
    QaReport* report = nullptr;
  };
  VerdictCounter counter_;
  // The effects' trace events, to the trace and the report.
  struct EffectsForward final : sim::EffectsTraceSink {
    void on_script_resolved(sim::LocalId owner, std::uint32_t table, std::uint32_t script_type, float intensity,
                            std::uint32_t chosen) override;
    void on_script_enqueued(sim::LocalId owner, std::uint32_t script, core::Seconds start) override;
    void on_hook_executed(sim::LocalId owner, dat::HookType type, core::Seconds time) override;
    void on_emitter(sim::LocalId owner, std::uint32_t emitter_info_id, std::uint32_t emitter_id,
                    sim::EmitterEvent event) override;
    sim::JsonlTrace* trace = nullptr;
    QaReport* report = nullptr;
  };
  EffectsForward effects_forward_;
  QaReport* report_ = nullptr;
  ChatBacklog chat_;
  std::optional<std::uint32_t> game_event_guid_;
  // World::handle's handlers, one per kind of decoded message.
  void handle_object(const protocol::Message& message);
  void handle_player_description(const protocol::PlayerDescription& description);
  void add_chat(protocol::ChatLine line);
};

}  // namespace dereth::app
