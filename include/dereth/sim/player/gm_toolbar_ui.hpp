#pragma once
// gmToolbarUI's selected-object health meter: what the toolbar shows of the
// selected creature's health, and when it asks the server for it. Retail
// sends QueryHealth for a newly selected creature (RecvNotice_SelectionChanged
// 0x004BF380: the meter of the old selection is taken down with a
// QueryHealth of 0 first) and shows a health the server answers only for
// the object still selected (RecvNotice_UpdateObjectHealth 0x004BD110).
// Drawing the meter is the overlay's; this keeps what it draws.
#include <cstdint>
#include <optional>
#include <vector>

namespace dereth::sim {

class GmToolbarUi {
 public:
  // gmToolbarUI::RecvNotice_SelectionChanged 0x004BF380, the health meter's
  // part: `selected` is the new selection (0 none), `has_health` whether it
  // is a creature the player may attack or a player (retail's test before
  // CM_Combat::Event_QueryHealth). Returns the targets to send QueryHealth
  // for, in order: 0 when a shown meter is taken down, then the new
  // selection when it has health. Selecting the same object again does nothing.
  std::vector<std::uint32_t> selection_changed(std::uint32_t selected, bool has_health);

  // gmToolbarUI::RecvNotice_UpdateObjectHealth 0x004BD110 (from
  // ClientCombatSystem::Handle_Combat__QueryHealthResponse): the meter shows
  // `health` when `target` is the selected object; another target's answer
  // is ignored. A health outside 0..1 (or NaN) is held as the nearest bound
  // (0 for NaN): the meter draws a fraction. True when it was taken.
  bool recv_notice_update_object_health(std::uint32_t target, float health);

  [[nodiscard]] std::uint32_t selected() const noexcept { return selected_; }
  // The fraction the meter shows; none while the meter is down (nothing
  // selected, or no answer yet).
  [[nodiscard]] std::optional<float> health() const noexcept { return health_; }

 private:
  std::uint32_t selected_ = 0;
  bool meter_shown_ = false;
  std::optional<float> health_;
};

}  // namespace dereth::sim
