#pragma once
// MotionTable (retail CMotionTable, canim/CMTable.c; spec/physics.md section
// 2): the read-only logic over one dat::MotionTable and GetObjectSequence,
// which rewrites a Sequence for a motion, with the sequence helpers it uses
// (add_motion ...) and MotionTableSource. The manager, interpreter and movement
// manager: motion_table_manager.hpp, motion_interp.hpp, dat_movement_manager.hpp.
// docs/sim.md "Animation (Sequence, MotionTable, PartArray)".

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "dereth/dat/motion_table.hpp"
#include "dereth/sim/motion/motion_command.hpp"
#include "dereth/sim/motion/motion_state.hpp"
#include "dereth/sim/motion/sequence.hpp"

namespace dereth::sim {

// add_motion 0x005224B0: overwrite velocity/omega with data * speed, then
// append every AnimData with its framerate times speed.
void add_motion(Sequence& sequence, const dat::MotionData* data, float speed_mod);
// combine_motion 0x00522580: add data's velocity/omega times speed.
void combine_motion(Sequence& sequence, const dat::MotionData* data, float speed_mod);
// subtract_motion 0x00522600
void subtract_motion(Sequence& sequence, const dat::MotionData* data, float speed_mod);
// change_cycle_speed 0x00522290
void change_cycle_speed(Sequence& sequence, float old_speed, float new_speed);
// same_sign 0x00522260
[[nodiscard]] bool same_sign(float a, float b) noexcept;

class MotionTable {
 public:
  // Indexes `data` (later entries with the same key win, as retail's hash
  // lookups find the last inserted).
  explicit MotionTable(std::shared_ptr<const dat::MotionTable> data);

  [[nodiscard]] std::uint32_t id() const noexcept { return data_->id; }
  [[nodiscard]] std::uint32_t default_style() const noexcept { return data_->default_style; }
  [[nodiscard]] const dat::MotionTable& data() const noexcept { return *data_; }
  [[nodiscard]] std::optional<std::uint32_t> style_default(std::uint32_t style) const;
  [[nodiscard]] const dat::MotionData* cycle(std::uint32_t key) const;
  [[nodiscard]] const dat::MotionData* modifier(std::uint32_t key) const;
  [[nodiscard]] const dat::MotionData* link(std::uint32_t outer_key, std::uint32_t motion) const;

  // CMotionTable::get_link 0x00522710
  [[nodiscard]] const dat::MotionData* get_link(std::uint32_t style, std::uint32_t substate, float substate_speed,
                                                std::uint32_t motion, float speed) const;
  // CMotionTable::is_allowed 0x005226C0
  [[nodiscard]] bool is_allowed(std::uint32_t motion, const dat::MotionData* data, const MotionState& state) const;
  // CMotionTable::GetObjectSequence 0x00522860
  bool get_object_sequence(std::uint32_t motion, MotionState& state, Sequence& sequence, float speed_mod,
                           std::uint32_t& num_anims, bool stop_modifiers) const;
  // CMotionTable::DoObjectMotion 0x00523E90
  bool do_object_motion(std::uint32_t motion, MotionState& state, Sequence& sequence, float speed_mod,
                        std::uint32_t& num_anims) const;
  // CMotionTable::StopSequenceMotion 0x00522FC0 (CMotionTable::StopObjectMotion
  // forwards here).
  bool stop_sequence_motion(std::uint32_t motion, float speed, MotionState& state, Sequence& sequence,
                            std::uint32_t& num_anims) const;
  // CMotionTable::StopObjectCompletely 0x00523ED0
  bool stop_object_completely(MotionState& state, Sequence& sequence, std::uint32_t& num_anims) const;
  // CMotionTable::SetDefaultState 0x005230A0
  bool set_default_state(MotionState& state, Sequence& sequence, std::uint32_t& num_anims) const;
  // CMotionTable::re_modify 0x005222E0
  void re_modify(Sequence& sequence, MotionState& state) const;

 private:
  std::shared_ptr<const dat::MotionTable> data_;
  std::unordered_map<std::uint32_t, std::uint32_t> style_defaults_;
  std::unordered_map<std::uint32_t, const dat::MotionData*> cycles_;
  std::unordered_map<std::uint32_t, const dat::MotionData*> modifiers_;
  std::unordered_map<std::uint32_t, std::unordered_map<std::uint32_t, const dat::MotionData*>> links_;
  // GetObjectSequence and StopSequenceMotion call each other (through
  // re_modify); a hostile table cannot make that unbounded.
  mutable int depth_ = 0;
};

// Where part arrays get their motion tables (DBObj::Get for 0x09 ids);
// nullptr means absent or unreadable.
class MotionTableSource {
 public:
  MotionTableSource() = default;
  MotionTableSource(const MotionTableSource&) = delete;
  MotionTableSource& operator=(const MotionTableSource&) = delete;
  virtual ~MotionTableSource() = default;
  [[nodiscard]] virtual std::shared_ptr<const MotionTable> get_motion_table(std::uint32_t did) = 0;
};

}  // namespace dereth::sim
