#include "dereth/app/world.hpp"

#include <chrono>

#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/dat_object_factory.hpp"
#include "dereth/sim/digest.hpp"
#include "dereth/sim/snapshot_builder.hpp"

namespace dereth::app {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

World::World(const core::Clock& clock, const dat::DatFile* portal, std::uint32_t seed)
    : context_(clock, seed),
      effects_(portal),
      factory_(portal != nullptr ? std::make_unique<sim::DatObjectFactory>(*portal) : nullptr),
      box_(context_),
      snapshot_(std::make_shared<const sim::RenderSnapshot>()) {
  context_.set_effects(&effects_);
  if (factory_) context_.set_factory(factory_.get());
  box_.set_trace_sink(&counter_);
}

World::~World() = default;

void World::VerdictCounter::on_message(const sim::MessageRecord& record) {
  const auto index = static_cast<std::size_t>(record.verdict);
  if (index < counts.size()) ++counts[index];
  if (forward != nullptr) forward->on_message(record);
}

void World::set_trace(sim::JsonlTrace* trace) noexcept {
  trace_ = trace;
  counter_.forward = trace;
  effects_.set_trace_sink(trace);
}

void World::handle(std::span<const std::uint8_t> bytes, double arrival) {
  if (trace_ != nullptr) trace_->set_arrival(arrival);
  handle(bytes);
  if (trace_ != nullptr) trace_->set_arrival(std::nullopt);
}

std::vector<std::string> World::take_chat() {
  std::vector<std::string> out;
  out.swap(chat_);
  return out;
}

void World::assume_player(std::uint32_t guid) { box_.handle(protocol::PlayerCreate{guid}); }

void World::handle(std::span<const std::uint8_t> bytes) {
  ++stats_.messages;
  const std::uint32_t opcode = protocol::peek_opcode(bytes);
  if (!protocol::is_decoded_opcode(opcode)) {
    ++stats_.not_object;
    if (opcode == protocol::login_opcode::ServerMessage) {
      if (auto text = protocol::decode_server_message(bytes); text) {
        if (chat_.size() >= kChatBacklog) chat_.erase(chat_.begin());
        chat_.push_back(std::move(text->text));
      }
    } else if (opcode == protocol::login_opcode::GameEvent && bytes.size() >= 8 && !game_event_guid_) {
      game_event_guid_ = static_cast<std::uint32_t>(bytes[4]) | (static_cast<std::uint32_t>(bytes[5]) << 8) |
                         (static_cast<std::uint32_t>(bytes[6]) << 16) | (static_cast<std::uint32_t>(bytes[7]) << 24);
    }
    return;
  }
  auto decoded = protocol::decode_message(bytes);
  if (!decoded) {
    ++stats_.decode_errors;
    return;
  }
  ++stats_.handled;
  box_.handle(*decoded);
}

bool World::step() {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t before = box_.physics().tick_count();
  box_.use_time();
  const std::uint64_t tick = box_.physics().tick_count();
  stats_.tick_seconds += seconds_since(start);
  if (tick == before) return false;
  ++stats_.ticks;
  const auto snap_start = std::chrono::steady_clock::now();
  snapshot_ = sim::build_render_snapshot(box_, tick);
  stats_.snapshot_seconds += seconds_since(snap_start);
  if (trace_ != nullptr) trace_->write_tick(tick, context_.now(), box_);
  return true;
}

}  // namespace dereth::app
