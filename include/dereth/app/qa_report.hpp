#pragma once
// The QA report (`dereth-sim CAPTURE --report report.json`): what the server
// said against what the client showed. For every server Position of an
// object dereth already had in the world, the distance between where dereth
// had the object (its own prediction: velocity, root motion, interpolation)
// and where the server put it, at that moment; per object and overall. Also
// the verdict counts, decode errors by opcode, objects created and deleted,
// the typed-script lookups that found no script, and the DAT records the
// world asked for and could not have; and, for a run that simulated nothing
// (a capture that starts after world entry), why, in one sentence that
// dereth-sim, `dereth replay` and the report's "why_empty" share.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/object/verdict.hpp"

namespace dereth::app {

class QaReport;

// One server Position measured against dereth's prediction: taken before
// the SmartBox applies the UpdatePosition, sampled after. A sample is added
// only when the update was applied and was not a teleport (a new place, not
// a correction of a prediction).
class PositionProbe {
 public:
  // None when the object is not in the world.
  [[nodiscard]] static std::optional<PositionProbe> before(const sim::SmartBox& box,
                                                           const protocol::UpdatePosition& update);
  void after(const sim::SmartBox& box, QaReport& report, double now) const;

 private:
  const protocol::UpdatePosition* update_ = nullptr;
  sim::Position predicted_;
  std::uint16_t stamp_ = 0;
  std::uint16_t teleport_ = 0;
  bool moving_ = false;
};

class QaReport {
 public:
  struct Sample {
    std::uint32_t guid = 0;
    std::uint64_t tick = 0;  // the physics tick the Position arrived after
    double time = 0.0;
    float distance = 0.0F;  // metres between dereth's position and the server's
    bool moving = false;    // the object had a velocity or was animating
  };

  void add_position_error(const Sample& s) { samples_.push_back(s); }
  void add_decode_error(std::uint32_t opcode) { ++decode_errors_[opcode]; }
  void add_verdict(const sim::MessageRecord& record);
  void add_script_lookup(std::uint32_t table, std::uint32_t script_type, std::uint32_t chosen);
  // The run's end: the player the SmartBox has (0: none), the player the
  // capture's game events are addressed to, if any.
  void set_player(std::uint32_t player_id, std::optional<std::uint32_t> game_event_guid) {
    player_id_ = player_id;
    game_event_guid_ = game_event_guid;
  }
  // Where the sentence points a reader who can name the player:
  // dereth-sim's own option, or dereth-sim from another tool.
  enum class AssumeHint : std::uint8_t { Option, DerethSim };
  // Why the run simulated nothing, one sentence; "" when it created objects
  // or had no object messages at all. --assume-player is suggested only
  // where it helps: the capture creates objects but never names the player.
  [[nodiscard]] std::string why_empty(AssumeHint hint = AssumeHint::Option) const;
  // The world's dat::RecordCache::missing() at the end of the run.
  void set_assets_missing(std::span<const dat::MissingRecord> missing) {
    assets_missing_.assign(missing.begin(), missing.end());
  }

  [[nodiscard]] const std::vector<Sample>& samples() const noexcept { return samples_; }
  [[nodiscard]] std::uint64_t objects_created() const noexcept { return created_; }
  [[nodiscard]] std::uint64_t objects_deleted() const noexcept { return deleted_; }

  // The report as one JSON object (docs/trace.md, "The QA report").
  void write_json(std::ostream& out) const;
  core::Result<void> write_file(const std::filesystem::path& path) const;

 private:
  std::vector<Sample> samples_;
  std::map<std::uint32_t, std::uint64_t> decode_errors_;
  std::map<std::string, std::uint64_t> verdicts_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> unresolved_scripts_;  // (table, type)
  std::uint64_t script_lookups_ = 0;
  std::uint64_t created_ = 0;
  std::uint64_t deleted_ = 0;
  std::uint64_t object_messages_ = 0;  // first dispatches only, not replays from a queue
  std::uint64_t create_messages_ = 0;  // CreateObject messages, whatever their verdict
  std::uint64_t player_creates_ = 0;   // PlayerCreate (or an assumed player)
  std::uint32_t player_id_ = 0;
  std::optional<std::uint32_t> game_event_guid_;
  std::vector<dat::MissingRecord> assets_missing_;
};

}  // namespace dereth::app
