#pragma once
// MotionTable (retail CMotionTable), MotionTableManager and MotionInterp
// (CMotionInterp): how motion commands become animation sequences
// (spec/physics.md section 2; RE canim/CMTable.c, canim/CMotionPrim.c,
// cphysobj/CMTableManager.c, canim/CMotionInterp.c, canim/CMInterpPrim.c).
//
// MotionTable is the read-only logic over one dat::MotionTable: style
// defaults, cycles, modifiers and links, and GetObjectSequence, which rewrites
// a Sequence for a motion. MotionTableManager keeps the object's MotionState
// and the queue of pending motions whose link animations have not finished;
// AnimDone hooks drain it. MotionInterp holds the raw motion state (the local
// player's keys) and the interpreted state (the canonical form the server
// sends for other objects) and applies one of them through the part array;
// DatMovementManager is the MovementManager seam over it.

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "dereth/dat/motion_table.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/object/seams.hpp"
#include "dereth/sim/motion/sequence.hpp"

namespace dereth::sim {

class PhysicsObj;
class MoveToManager;

// Motion id class bits (spec/physics.md section 2.1).
namespace motion_mask {
inline constexpr std::uint32_t Style = 0x80000000;
inline constexpr std::uint32_t SubState = 0x40000000;
inline constexpr std::uint32_t Modifier = 0x20000000;
inline constexpr std::uint32_t Action = 0x10000000;
inline constexpr std::uint32_t UI = 0x08000000;
inline constexpr std::uint32_t Toggle = 0x04000000;
inline constexpr std::uint32_t ChatEmote = 0x02000000;
inline constexpr std::uint32_t Mappable = 0x01000000;
inline constexpr std::uint32_t Command = 0x00FFFFFF;
}  // namespace motion_mask

// Motion commands the motion code names (retail MotionCommand values).
namespace motion_command {
inline constexpr std::uint32_t Invalid = 0;
inline constexpr std::uint32_t Ready = 0x41000003;
inline constexpr std::uint32_t Stop = 0x41000004;
inline constexpr std::uint32_t WalkForward = 0x45000005;
inline constexpr std::uint32_t WalkBackwards = 0x45000006;
inline constexpr std::uint32_t RunForward = 0x44000007;
inline constexpr std::uint32_t TurnRight = 0x6500000D;
inline constexpr std::uint32_t TurnLeft = 0x6500000E;
inline constexpr std::uint32_t SideStepRight = 0x6500000F;
inline constexpr std::uint32_t SideStepLeft = 0x65000010;
inline constexpr std::uint32_t Dead = 0x40000011;
inline constexpr std::uint32_t Crouch = 0x41000012;
inline constexpr std::uint32_t Sitting = 0x41000013;
inline constexpr std::uint32_t Sleeping = 0x41000014;
inline constexpr std::uint32_t Falling = 0x40000015;
inline constexpr std::uint32_t Jump = 0x2500003B;
inline constexpr std::uint32_t HandCombat = 0x8000003C;
inline constexpr std::uint32_t NonCombat = 0x8000003D;
inline constexpr std::uint32_t LifestoneRecall = 0x10000153;
}  // namespace motion_command

// The full 32-bit motion for the u16 a motion message carries (retail's
// command_ids[] table, spec/protocol.md section 0). Only the commands the
// motion code and the demo use are known; nullopt otherwise.
[[nodiscard]] std::optional<std::uint32_t> motion_command_from_wire(std::uint16_t command) noexcept;

// One entry of a MotionState list (retail MotionList).
struct MotionListEntry {
  std::uint32_t motion = 0;
  float speed_mod = 1.0f;
  bool operator==(const MotionListEntry&) const = default;
};

// MotionState (CMotionPrim): style, substate and its speed, the modifiers
// (newest first) and the pending actions (oldest first).
class MotionState {
 public:
  std::uint32_t style = 0;
  std::uint32_t substate = 0;
  float substate_mod = 1.0f;

  // MotionState::add_modifier 0x00526340: refused when present or equal to
  // the substate.
  bool add_modifier(std::uint32_t modifier, float speed_mod);
  // MotionState::add_modifier_no_check 0x00525FF0: pushes to the front.
  void add_modifier_no_check(std::uint32_t modifier, float speed_mod);
  // MotionState::remove_modifier 0x00526040
  void remove_modifier(std::size_t index);
  // MotionState::clear_modifiers 0x00526070
  void clear_modifiers() noexcept { modifiers_.clear(); }
  // MotionState::add_action 0x005260A0
  void add_action(std::uint32_t action, float speed_mod);
  // MotionState::clear_actions 0x005260F0
  void clear_actions() noexcept { actions_.clear(); }
  // MotionState::remove_action_head 0x00526120: the motion, or 0 when empty.
  std::uint32_t remove_action_head();

  [[nodiscard]] const std::vector<MotionListEntry>& modifiers() const noexcept { return modifiers_; }
  [[nodiscard]] const std::vector<MotionListEntry>& actions() const noexcept { return actions_; }

 private:
  std::vector<MotionListEntry> modifiers_;  // index 0 is modifier_head
  std::vector<MotionListEntry> actions_;    // index 0 is action_head
};

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

// Retail error codes of the movement path (WERROR_*).
namespace movement_error {
inline constexpr std::uint32_t None = 0;
inline constexpr std::uint32_t NoPhysicsObject = 8;
inline constexpr std::uint32_t NoMotionTable = 7;
inline constexpr std::uint32_t CantCrouchInCombat = 63;
inline constexpr std::uint32_t CantSitInCombat = 64;
inline constexpr std::uint32_t CantLieDownInCombat = 65;
inline constexpr std::uint32_t CantChatEmoteInCombat = 66;
inline constexpr std::uint32_t NoMtableData = 67;
inline constexpr std::uint32_t TooManyActions = 69;
inline constexpr std::uint32_t GeneralMovementFailure = 71;
inline constexpr std::uint32_t CantJumpLoad = 73;  // "You're too loaded down to jump"
inline constexpr std::uint32_t YouCantJumpFromThisPosition = 36;
}  // namespace movement_error

// MotionTableManager::AnimNode: a motion and how many link animations must
// finish before it is done.
struct AnimNode {
  std::uint32_t motion = 0;
  std::uint32_t num_anims = 0;
  bool operator==(const AnimNode&) const = default;
};

class MotionTableManager {
 public:
  // MotionTableManager::Create 0x0051BC50 (the table may be absent).
  MotionTableManager(PhysicsObj* owner, std::uint32_t table_id, std::shared_ptr<const MotionTable> table);

  // MotionTableManager::GetMotionTableID 0x0051BC10: 0 without a table.
  [[nodiscard]] std::uint32_t get_motion_table_id() const noexcept { return table_ ? table_->id() : 0; }
  [[nodiscard]] const MotionTable* table() const noexcept { return table_.get(); }
  [[nodiscard]] const MotionState& state() const noexcept { return state_; }
  [[nodiscard]] MotionState& state() noexcept { return state_; }
  [[nodiscard]] const std::vector<AnimNode>& pending_animations() const noexcept { return pending_; }
  [[nodiscard]] std::int32_t animation_counter() const noexcept { return animation_counter_; }

  // MotionTableManager::PerformMovement 0x0051C0B0
  std::uint32_t perform_movement(MovementKind kind, std::uint32_t motion, float speed, Sequence& sequence);
  // MotionTableManager::add_to_queue 0x0051BFE0
  void add_to_queue(std::uint32_t motion, std::uint32_t num_anims, Sequence& sequence);
  // MotionTableManager::remove_redundant_links 0x0051BF20
  void remove_redundant_links(Sequence& sequence);
  // MotionTableManager::truncate_animation_list 0x0051BCA0
  void truncate_animation_list(std::size_t node, Sequence& sequence);
  // MotionTableManager::AnimationDone 0x0051BCE0
  void animation_done(bool success);
  // MotionTableManager::CheckForCompletedMotions 0x0051BE00
  void check_for_completed_motions();
  // MotionTableManager::UseTime 0x0051CB00 (the address an AC bindings
  // listing gives; the 11.4186 split lacks its body): CheckForCompletedMotions.
  void use_time() { check_for_completed_motions(); }
  // MotionTableManager::HandleEnterWorld 0x0051BDD0
  void handle_enter_world(Sequence& sequence);
  // MotionTableManager::HandleExitWorld 0x0051BDA0
  void handle_exit_world();
  // MotionTableManager::initialize_state 0x0051C030
  void initialize_state(Sequence& sequence);

 private:
  void pop_head();

  PhysicsObj* owner_;
  std::uint32_t table_id_;
  std::shared_ptr<const MotionTable> table_;
  MotionState state_;
  std::vector<AnimNode> pending_;
  std::int32_t animation_counter_ = 0;
};

// InterpretedMotionState (CMInterpPrim): the canonical motion state.
struct InterpretedMotionState {
  struct Action {
    std::uint32_t motion = 0;
    float speed = 1.0f;
    std::uint32_t stamp = 0;
    bool autonomous = false;
    bool operator==(const Action&) const = default;
  };

  // InterpretedMotionState::InterpretedMotionState 0x0051E8D0 defaults.
  std::uint32_t current_style = motion_command::NonCombat;
  std::uint32_t forward_command = motion_command::Ready;
  float forward_speed = 1.0f;
  std::uint32_t sidestep_command = 0;
  float sidestep_speed = 1.0f;
  std::uint32_t turn_command = 0;
  float turn_speed = 1.0f;
  std::vector<Action> actions;

  // InterpretedMotionState::ApplyMotion 0x0051EA40
  void apply_motion(std::uint32_t motion, const MovementParameters& params);
  // InterpretedMotionState::RemoveMotion 0x0051E790
  void remove_motion(std::uint32_t motion);
  // InterpretedMotionState::copy_movement_from 0x0051E750 (not the actions)
  void copy_movement_from(const InterpretedMotionState& other);
  // InterpretedMotionState::AddAction 0x0051E9E0
  void add_action(std::uint32_t action, float speed, std::uint32_t stamp, bool autonomous);
  // InterpretedMotionState::RemoveAction 0x0051EAD0: the motion, or 0.
  std::uint32_t remove_action();
};

// The interpreted state carried by a Movement (u16 commands widened through
// motion_command_from_wire; unknown commands logged and left at defaults).
[[nodiscard]] InterpretedMotionState interpreted_state_from_wire(const protocol::InterpretedMotionState& wire);

// CMotionInterp: the raw state (what the local player pressed) and the
// interpreted state (the canonical form the server sends for everyone else),
// hold keys, jumps; the MoveTo manager is not ported. apply_current_movement
// rebuilds the animation from the raw state for the local player whose last
// move was its own (autonomous), from the interpreted state otherwise.
class MotionInterp {
 public:
  struct PendingMotion {
    std::uint32_t context_id = 0;
    std::uint32_t motion = 0;
    std::uint32_t jump_error = 0;
    bool operator==(const PendingMotion&) const = default;
  };

  explicit MotionInterp(PhysicsObj& owner) : owner_(&owner) {}

  [[nodiscard]] const InterpretedMotionState& interpreted_state() const noexcept { return interpreted_; }
  [[nodiscard]] const RawMotionState& raw_state() const noexcept { return raw_; }
  [[nodiscard]] const std::vector<PendingMotion>& pending_motions() const noexcept { return pending_; }
  [[nodiscard]] bool initted() const noexcept { return initted_; }

  // CMotionInterp::InqStyle 0x00527B10
  [[nodiscard]] std::uint32_t inq_style() const noexcept { return interpreted_.current_style; }
  // CMotionInterp::enter_default_state 0x00528C80
  void enter_default_state();
  // CMotionInterp::DoMotion 0x00528D20: the hold key, adjust_motion, the
  // interpreted motion, and on success the raw state.
  std::uint32_t do_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::StopMotion 0x00528530
  std::uint32_t stop_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::DoInterpretedMotion 0x00528360
  std::uint32_t do_interpreted_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::StopInterpretedMotion 0x00528470
  std::uint32_t stop_interpreted_motion(std::uint32_t motion, const MovementParameters& params);
  // CMotionInterp::StopCompletely 0x00527E40
  std::uint32_t stop_completely();
  // CMotionInterp::apply_interpreted_movement 0x00528600
  void apply_interpreted_movement(bool cancel_moveto, bool disallow_jump);
  // CMotionInterp::apply_raw_movement 0x005287E0: the raw state copied into
  // the interpreted state, each slot through adjust_motion with its hold key.
  void apply_raw_movement(bool cancel_moveto, bool disallow_jump);
  // CMotionInterp::apply_current_movement 0x00528870: raw for the local
  // player (or an object without a weenie) whose last move was autonomous.
  void apply_current_movement(bool cancel_moveto, bool disallow_jump);
  // CMotionInterp::move_to_interpreted_state 0x005289C0
  bool move_to_interpreted_state(const InterpretedMotionState& state);
  // CMotionInterp::contact_allows_move 0x00528240
  [[nodiscard]] bool contact_allows_move(std::uint32_t motion) const;
  // CMotionInterp::adjust_motion 0x00528010: `key` Invalid means the raw
  // state's current hold key.
  void adjust_motion(std::uint32_t& motion, float& speed, HoldKey key = HoldKey::Invalid) const;
  // CMotionInterp::apply_run_to_command 0x00527BE0
  void apply_run_to_command(std::uint32_t& motion, float& speed) const;
  // CMotionInterp::set_hold_run 0x00528B70
  void set_hold_run(bool run, bool cancel_moveto);
  // CMotionInterp::SetHoldKey 0x00528BB0
  void set_hold_key(HoldKey key, bool cancel_moveto);
  // CMotionInterp::is_standing_still 0x00527FA0
  [[nodiscard]] bool is_standing_still() const;
  // CMotionInterp::motion_allows_jump 0x005279E0: 0, or 72 for a substate
  // (or action) from which no jump is allowed.
  [[nodiscard]] static std::uint32_t motion_allows_jump(std::uint32_t substate) noexcept;
  // CMotionInterp::jump_charge_is_allowed 0x00527A50: 73 when the weenie
  // says the burden forbids it (ACCWeenieObject::CanJump false: too loaded
  // down, not the player, or no qualities yet), 72 from a pose that cannot jump.
  [[nodiscard]] std::uint32_t jump_charge_is_allowed() const;
  // CMotionInterp::charge_jump 0x005281C0
  std::uint32_t charge_jump();
  // CMotionInterp::jump_is_allowed 0x005282B0: 36 in the air, 71 fully
  // constrained, a pending motion's jump error, jump_charge_is_allowed's
  // answer, motion_allows_jump's; then the weenie's JumpStaminaCost fills
  // `stamina_cost` (71 when it gives no answer). The cost is not compared
  // with the stamina: the server does that.
  [[nodiscard]] std::uint32_t jump_is_allowed(float extent, int& stamina_cost) const;
  // CMotionInterp::jump 0x00528780: on success the extent is kept and the
  // object leaves the ground (set_on_walkable(false) -> LeaveGround).
  std::uint32_t jump(float extent, int& stamina_adjustment);
  // CMotionInterp::get_jump_v_z 0x00527AA0
  [[nodiscard]] float get_jump_v_z() const;
  // CMotionInterp::add_to_queue 0x00527B80
  void add_to_queue(std::uint32_t context_id, std::uint32_t motion, std::uint32_t jump_error);
  // CMotionInterp::MotionDone 0x00527EC0
  void motion_done(bool success);
  // CMotionInterp::HandleExitWorld 0x00527F30
  void handle_exit_world();
  // CMotionInterp::HitGround 0x00528AC0
  void hit_ground();
  // CMotionInterp::LeaveGround 0x00528B00
  void leave_ground();
  // CMotionInterp::get_state_velocity 0x00527D50: object-local.
  [[nodiscard]] glm::vec3 get_state_velocity() const;
  // CMotionInterp::get_max_speed 0x00527CB0: 4 x InqRunRate.
  [[nodiscard]] float get_max_speed() const;
  // CMotionInterp::get_adjusted_max_speed 0x00527D00: as get_max_speed, but a
  // RunForward state uses its own forward speed (current_speed_factor, never
  // written after CMotionInterp::Create sets it to 1, divides it).
  [[nodiscard]] float get_adjusted_max_speed() const;
  // CMotionInterp::get_leave_ground_velocity 0x005280C0: the state velocity
  // with the jump's vertical speed, or the current velocity when both are nil.
  [[nodiscard]] glm::vec3 get_leave_ground_velocity() const;
  // CMotionInterp::motions_pending 0x00527FE0
  [[nodiscard]] bool motions_pending() const noexcept { return !pending_.empty(); }
  // The run rate the weenie answers (ACCWeenieObject::InqRunRate, from the
  // run skill) or, when it answers none, my_run_rate; 1 without a weenie.
  [[nodiscard]] float inq_run_rate() const;

  bool standing_longjump = false;
  std::uint32_t server_action_stamp = 0;
  float my_run_rate = 1.0f;
  float jump_extent = 0.0f;

 private:
  [[nodiscard]] bool is_creature_or_unknown() const;
  [[nodiscard]] bool is_the_player_or_unknown() const;
  void remove_link_animations_when_cell_less();

  PhysicsObj* owner_;
  RawMotionState raw_;
  InterpretedMotionState interpreted_;
  std::vector<PendingMotion> pending_;
  bool initted_ = false;
};

// MovementManager over MotionInterp and MoveToManager: Movement messages
// drive the motion table (the interpreted form) or a MoveTo (types 6-9).
class DatMovementManager final : public MovementManager {
 public:
  explicit DatMovementManager(PhysicsObj& owner);
  ~DatMovementManager() override;

  // MovementManager::unpack_movement 0x00524440
  void unpack_movement(const protocol::MovementData& data, bool autonomous) override;
  // MovementManager::EnterDefaultState 0x005241C0
  void enter_default_state() override;
  // MovementManager::MotionDone 0x005242D0
  void motion_done(std::uint32_t motion, bool success) override;
  // MovementManager::HandleExitWorld 0x00524350
  void handle_exit_world() override;
  // MovementManager::HitGround 0x00524300: the interpreter, then the MoveTo.
  void hit_ground() override;
  // MovementManager::LeaveGround 0x00524320 (the MoveTo's half is empty)
  void leave_ground() override;
  // MovementManager::UseTime 0x005242F0
  void use_time() override;
  // MovementManager::CancelMoveTo 0x005241B0 (CPhysicsObj::cancel_moveto's 0x36)
  void cancel_move_to() override;
  // MovementManager::IsMovingTo 0x00524260
  [[nodiscard]] bool is_moving_to() const override;
  // MovementManager::HandleUpdateTarget 0x00524790
  void handle_update_target(const TargetInfo& info) override;
  // MovementManager::motions_pending 0x00524280
  [[nodiscard]] bool motions_pending() const override { return minterp_ && minterp_->motions_pending(); }
  // MovementManager::PerformMovement 0x005240D0 for the interpreted kinds
  // (InterpretedCommand, StopInterpretedCommand, StopCompletely).
  std::uint32_t perform_movement(MovementKind kind, std::uint32_t motion, const MovementParameters& params) override;
  // MovementManager::PerformMovement 0x005240D0: the MoveTo kinds (6-9)
  // through the MoveToManager (made on first use).
  std::uint32_t perform_movement_struct(const MovementStruct& mvs) override;
  // CMotionInterp::get_max_speed 0x00527CB0, through get_minterp
  [[nodiscard]] float get_max_speed() override { return get_minterp().get_max_speed(); }
  // CMotionInterp::get_adjusted_max_speed 0x00527D00, through get_minterp
  [[nodiscard]] float get_adjusted_max_speed() override { return get_minterp().get_adjusted_max_speed(); }
  // MovementManager::get_minterp 0x005242A0: created (in its default state)
  // on first use.
  MotionInterp& get_minterp();
  [[nodiscard]] MotionInterp* motion_interpreter() const noexcept { return minterp_.get(); }
  [[nodiscard]] MotionInterp* get_motion_interp() override { return &get_minterp(); }
  // MovementManager::MakeMoveToManager 0x00524000
  MoveToManager& make_move_to_manager();
  [[nodiscard]] MoveToManager* move_to_manager() const noexcept { return moveto_manager_.get(); }

 private:
  PhysicsObj* owner_;
  std::unique_ptr<MotionInterp> minterp_;
  std::unique_ptr<MoveToManager> moveto_manager_;
};

}  // namespace dereth::sim
