#pragma once
// TargetManager (retail PORTAL/cphysobj/CTargetting): an object's watch on one
// target (the sticky and MoveTo targets) and the voyeurs that watch it, told
// when it strays, leaves the world or teleports. Objects are named by id, so a
// deleted one leaves nothing dangling. docs/sim.md "MoveTo and TurnTo".
#include <cstdint>
#include <map>
#include <optional>

#include <glm/vec3.hpp>

#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class PhysicsObj;

// Retail TargetStatus.
namespace target_status {
inline constexpr std::uint32_t Undef = 0;
inline constexpr std::uint32_t Ok = 1;
inline constexpr std::uint32_t ExitWorld = 2;
inline constexpr std::uint32_t Teleported = 3;
inline constexpr std::uint32_t Contact = 4;
inline constexpr std::uint32_t Parented = 5;
inline constexpr std::uint32_t TimedOut = 6;
}  // namespace target_status

// TargetInfo (TargetInfo::TargetInfo 0x0051A420 defaults): what a target
// reports to its watcher. The first four fields keep the order the older
// sticky tests build it in.
struct TargetInfo {
  static constexpr std::uint32_t kOk = target_status::Ok;
  std::uint32_t context_id = 0;
  std::uint32_t object_id = 0;
  std::uint32_t status = target_status::Undef;
  Position target_position{};
  Position interpolated_position{};
  float radius = 0.0f;
  double quantum = 0.0;
  glm::vec3 velocity{0.0f};
  // The unit vector from the watcher to interpolated_position (ReceiveUpdate);
  // (0, 0, 1) when they coincide.
  glm::vec3 interpolated_heading{0.0f};
  double last_update_time = 0.0;  // Timer::cur_time of the last report
};

// TargettedVoyeurInfo: one watcher of this object.
struct TargettedVoyeurInfo {
  std::uint32_t object_id = 0;
  double quantum = 0.0;
  float radius = 0.0f;
  Position last_sent_position{};
};

class TargetManager {
 public:
  static constexpr double kUpdateInterval = 0.5;  // HandleTargetting runs at most every 0.5 s
  static constexpr double kTargetTimeout = 10.0;  // an unanswered target times out after 10 s

  // TargetManager::TargetManager 0x0051A370
  explicit TargetManager(PhysicsObj& owner) noexcept : physobj_(&owner) {}

  // TargetManager::SetTarget 0x0051AC30: the old target's voyeur entry is
  // removed; a new one (object 0: an immediate TimedOut report) asks the
  // target to add this object as a voyeur.
  void set_target(std::uint32_t context_id, std::uint32_t object_id, float radius, double quantum);
  // TargetManager::ClearTarget 0x0051A7E0
  void clear_target();
  // TargetManager::SetTargetQuantum 0x0051A4A0
  void set_target_quantum(double new_quantum);
  // TargetManager::AddVoyeur 0x0051A830: a known voyeur gets the new radius
  // and quantum only; a new one is sent this object's position at once.
  void add_voyeur(std::uint32_t object_id, float radius, double quantum);
  // TargetManager::RemoveVoyeur 0x0051AD90
  bool remove_voyeur(std::uint32_t object_id);
  // TargetManager::ReceiveUpdate 0x0051A930: a report about the current target.
  void receive_update(const TargetInfo& update);
  // TargetManager::HandleTargetting 0x0051AA90 (every quantum, from
  // UpdateObjectInternal).
  void handle_targetting();
  // TargetManager::NotifyVoyeurOfEvent 0x0051A6F0
  void notify_voyeur_of_event(std::uint32_t status);
  // TargetManager::CheckAndUpdateVoyeur 0x0051A650
  void check_and_update_voyeur(std::uint32_t voyeur_id);
  // TargetManager::SendVoyeurUpdate 0x0051A4F0
  void send_voyeur_update(TargettedVoyeurInfo& voyeur, const Position& p, std::uint32_t status);
  // TargetManager::GetInterpolatedPosition 0x0051A5E0: this object's
  // position advanced by its velocity for `quantum` seconds.
  [[nodiscard]] Position get_interpolated_position(double quantum) const;

  [[nodiscard]] const std::optional<TargetInfo>& target_info() const noexcept { return target_info_; }
  // The voyeur table. Retail's is a four-bucket hash; this map visits the
  // voyeurs in id order (each voyeur's update is independent of the others).
  [[nodiscard]] const std::map<std::uint32_t, TargettedVoyeurInfo>& voyeurs() const noexcept { return voyeurs_; }
  [[nodiscard]] double last_update_time() const noexcept { return last_update_time_; }

 private:
  PhysicsObj* physobj_;
  std::optional<TargetInfo> target_info_;
  std::map<std::uint32_t, TargettedVoyeurInfo> voyeurs_;
  double last_update_time_ = 0.0;  // PhysicsTimer::curr_time of the last HandleTargetting
};

}  // namespace dereth::sim
