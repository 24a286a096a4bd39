// World, the trace and QA-report part: where the SmartBox's verdicts and the
// effects' script, hook and emitter events go besides the world's own counts
// (the JSONL trace of docs/trace.md, the QA report). The rest of World is
// world.cpp.
#include "dereth/app/qa_report.hpp"
#include "dereth/app/world.hpp"
#include "dereth/sim/object/digest.hpp"

namespace dereth::app {

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

}  // namespace dereth::app
