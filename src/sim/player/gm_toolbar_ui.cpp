#include "dereth/sim/player/gm_toolbar_ui.hpp"

#include <cmath>

namespace dereth::sim {

// gmToolbarUI::RecvNotice_SelectionChanged 0x004BF380 (the health meter)
std::vector<std::uint32_t> GmToolbarUi::selection_changed(std::uint32_t selected, bool has_health) {
  std::vector<std::uint32_t> queries;
  if (selected == selected_) return queries;
  selected_ = selected;
  if (meter_shown_) {
    queries.push_back(0);
    meter_shown_ = false;
  }
  health_.reset();
  if (selected != 0 && has_health) queries.push_back(selected);
  return queries;
}

// gmToolbarUI::RecvNotice_UpdateObjectHealth 0x004BD110
bool GmToolbarUi::recv_notice_update_object_health(std::uint32_t target, float health) {
  if (target != selected_ || selected_ == 0) return false;
  meter_shown_ = true;
  health_ = std::isnan(health) ? 0.0F : health < 0.0F ? 0.0F : health > 1.0F ? 1.0F : health;
  return true;
}

}  // namespace dereth::sim
