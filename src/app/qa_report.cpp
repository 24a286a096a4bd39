#include "dereth/app/qa_report.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

#include <fmt/format.h>

#include "dereth/core/json_writer.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::app {

std::optional<PositionProbe> PositionProbe::before(const sim::SmartBox& box, const protocol::UpdatePosition& update) {
  const sim::PhysicsObj* obj = box.get_object(update.guid);
  if (obj == nullptr || !obj->in_cell()) return std::nullopt;
  PositionProbe probe;
  probe.update_ = &update;
  probe.predicted_ = obj->position();
  probe.stamp_ = obj->update_time(protocol::TimestampIndex::Position);
  probe.teleport_ = obj->update_time(protocol::TimestampIndex::Teleport);
  const glm::vec3 v = obj->velocity();
  probe.moving_ = glm::dot(v, v) > 0.0F || obj->has_anims();
  return probe;
}

void PositionProbe::after(const sim::SmartBox& box, QaReport& report, double now) const {
  const sim::PhysicsObj* obj = box.get_object(update_->guid);
  if (obj == nullptr || obj->update_time(protocol::TimestampIndex::Position) == stamp_ ||
      obj->update_time(protocol::TimestampIndex::Teleport) != teleport_) {
    return;
  }
  const glm::vec3 d = sim::get_offset(predicted_, sim::received_position(update_->position).position);
  report.add_position_error(
      QaReport::Sample{update_->guid, box.physics().tick_count(), now, std::sqrt(glm::dot(d, d)), moving_});
}

namespace {

// Summary statistics of a list of distances: count, mean, p50, p95, max.
void write_stats(core::JsonWriter& j, std::vector<float> d) {
  std::sort(d.begin(), d.end());
  const auto at = [&](double q) {
    if (d.empty()) return 0.0F;
    const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(d.size()))) - 1;
    return d[std::min(i, d.size() - 1)];
  };
  double sum = 0.0;
  for (float x : d) sum += x;
  j.key("count").number(static_cast<std::uint64_t>(d.size()));
  j.key("mean").f64(d.empty() ? 0.0 : sum / static_cast<double>(d.size()));
  j.key("p50").f32(at(0.50));
  j.key("p95").f32(at(0.95));
  j.key("max").f32(d.empty() ? 0.0F : d.back());
}

}  // namespace

void QaReport::add_verdict(const sim::MessageRecord& record) {
  ++verdicts_[std::string(sim::to_string(record.verdict))];
  if (!record.replayed) {
    ++object_messages_;
    if (record.opcode == protocol::opcode::CreateObject) ++create_messages_;
    if (record.opcode == protocol::opcode::PlayerCreate) ++player_creates_;
  }
  if (record.verdict != sim::Verdict::Applied) return;
  if (record.opcode == protocol::opcode::CreateObject) ++created_;
  if (record.opcode == protocol::opcode::DeleteObject) ++deleted_;
}

void QaReport::add_script_lookup(std::uint32_t table, std::uint32_t script_type, std::uint32_t chosen) {
  ++script_lookups_;
  if (chosen == 0) ++unresolved_scripts_[{table, script_type}];
}

std::string QaReport::why_empty(AssumeHint hint) const {
  if (created_ > 0 || object_messages_ == 0) return {};
  const std::uint64_t others = object_messages_ - player_creates_;
  if (create_messages_ == 0) {
    // Nothing to simulate whoever the player is: --assume-player cannot help.
    return fmt::format(
        "This capture {}creates no objects: its {} object message{} about objects created before it began, so "
        "nothing is simulated",
        player_creates_ == 0 ? "starts after world entry and " : "", others, others == 1 ? " is" : "s are");
  }
  if (player_id_ == 0) {
    const std::string option = hint == AssumeHint::Option ? "--assume-player" : "dereth-sim --assume-player";
    return fmt::format(
        "This capture starts after world entry: no PlayerCreate names the player, so its {} object messages ({} "
        "CreateObject) wait for one and nothing is simulated; {}",
        others, create_messages_,
        game_event_guid_
            ? fmt::format("{} 0x{:08X} (the player its game events name) simulates them", option, *game_event_guid_)
            : option + " GUID names the player");
  }
  return fmt::format(
      "This capture's {} CreateObject messages created nothing (see the verdicts), so nothing is "
      "simulated",
      create_messages_);
}

void QaReport::write_json(std::ostream& out) const {
  core::JsonWriter j;
  j.begin_object();
  j.key("position_error").begin_object();
  {
    std::vector<float> all, moving;
    for (const auto& s : samples_) {
      all.push_back(s.distance);
      if (s.moving) moving.push_back(s.distance);
    }
    j.key("all").begin_object();
    write_stats(j, all);
    j.end_object();
    j.key("moving").begin_object();
    write_stats(j, moving);
    j.end_object();
    std::vector<Sample> worst = samples_;
    std::sort(worst.begin(), worst.end(), [](const Sample& a, const Sample& b) {
      return a.distance != b.distance ? a.distance > b.distance : a.tick < b.tick;
    });
    if (worst.size() > 10) worst.resize(10);
    j.key("worst").begin_array();
    for (const auto& s : worst) {
      j.begin_object();
      j.key("guid").hex(s.guid);
      j.key("tick").number(s.tick);
      j.key("time").f64(s.time);
      j.key("distance").f32(s.distance);
      j.key("moving").boolean(s.moving);
      j.end_object();
    }
    j.end_array();
    std::map<std::uint32_t, std::vector<float>> per;
    for (const auto& s : samples_) per[s.guid].push_back(s.distance);
    j.key("per_object").begin_array();
    for (const auto& [guid, d] : per) {
      j.begin_object();
      j.key("guid").hex(guid);
      write_stats(j, d);
      j.end_object();
    }
    j.end_array();
  }
  j.end_object();
  j.key("verdicts").begin_object();
  for (const auto& [name, n] : verdicts_) j.key(name).number(n);
  j.end_object();
  j.key("decode_errors").begin_object();
  for (const auto& [op, n] : decode_errors_) j.key(fmt::format("0x{:08X}", op)).number(n);
  j.end_object();
  j.key("objects_created").number(created_);
  j.key("objects_deleted").number(deleted_);
  // Why a run simulated nothing (null when it did).
  if (const std::string why = why_empty(AssumeHint::DerethSim); !why.empty()) {
    j.key("why_empty").string(why);
  } else {
    j.key("why_empty").null();
  }
  j.key("script_lookups").number(script_lookups_);
  j.key("scripts_not_found").begin_array();
  for (const auto& [key, n] : unresolved_scripts_) {
    j.begin_object();
    j.key("table").hex(key.first);
    j.key("type").hex(key.second);
    j.key("count").number(n);
    j.end_object();
  }
  j.end_array();
  j.key("assets_missing").begin_array();
  for (const dat::MissingRecord& m : assets_missing_) {
    j.begin_object();
    j.key("kind").string(m.kind);
    j.key("id").hex(m.id);
    j.key("why").string(m.why);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  out << j.str() << '\n';
}

core::Result<void> QaReport::write_file(const std::filesystem::path& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return std::unexpected(core::Error{core::ErrorKind::Io, path.string(), "", 0, "cannot be written"});
  write_json(out);
  out.flush();
  if (!out)
    return std::unexpected(core::Error{core::ErrorKind::Io, path.string(), "", 0, "could not be written completely"});
  return {};
}

}  // namespace dereth::app
