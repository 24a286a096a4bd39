#pragma once
// The housing game event the collision side needs: F7B0 0x0248
// UpdateRestrictions, a house's new RestrictionDB. Layout from the retail
// dispatcher (CM_House::DispatchUI_Recv_UpdateRestrictions 0x006AA430: u8
// the house-restriction timestamp, u32 the object, then RestrictionDB::UnPack
// 0x005AE990), checked against ACE's GameEventHouseUpdateRestrictions.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/protocol/types.hpp"
#include "dereth/protocol/weenie_desc.hpp"

namespace dereth::protocol {

namespace house_event {
inline constexpr std::uint32_t UpdateRestrictions = 0x0248;
}  // namespace house_event

struct UpdateRestrictions {
  std::uint8_t timestamp = 0;  // WTimeStamper's house stamp
  std::uint32_t object = 0;    // whose RestrictionDB this is (the house)
  HouseRestrictions db;        // any of RestrictionDB::UnPack's three layouts
  bool operator==(const UpdateRestrictions&) const = default;
};
std::vector<std::uint8_t> encode_update_restrictions(std::uint32_t target, std::uint32_t sequence,
                                                     const UpdateRestrictions& m);
// A short body, a RestrictionDB that runs out or that an older layout's
// table refuses, or bytes left over are errors naming the field.
Result<UpdateRestrictions> decode_update_restrictions(std::span<const std::uint8_t> body);

}  // namespace dereth::protocol
