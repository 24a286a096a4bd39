#pragma once
// RestrictionDB: a house's access list (PORTAL/engine_house/RestrictionDB.c),
// the weenie's pwd._db. It decides who may walk into the cells a house
// restricts (CObjCell::check_entry_restrictions, docs/sim.md "Collision").

#include <cstdint>
#include <map>

#include "dereth/protocol/weenie_desc.hpp"

namespace dereth::sim {

struct RestrictionDB {
  // RestrictionDB::_bitmask: bit 0 an open house (RestrictionDB::SetOpenHouse 0x005AE310).
  std::uint32_t bitmask = 0;
  // RestrictionDB::_monarch_iid: every member under this monarch is allowed.
  std::uint32_t monarch_iid = 0;
  // RestrictionDB::_table: the guests by guid (the value, storage access,
  // is not asked by IsAllowedIn). A guid listed twice keeps its first value.
  std::map<std::uint32_t, std::uint32_t> table;

  // The wire's RestrictionDB (WeenieDesc HouseRestrictions): openStatus is
  // the bitmask, monarchGuid the monarch.
  [[nodiscard]] static RestrictionDB from_wire(const protocol::HouseRestrictions& wire);

  // RestrictionDB::IsAllowedIn 0x005AE8F0: an open house admits everyone;
  // else a nonzero monarch_iid equal to `monarch`, else a nonzero `guest`
  // in the table.
  [[nodiscard]] bool is_allowed_in(std::uint32_t guest, std::uint32_t monarch) const noexcept;

  bool operator==(const RestrictionDB&) const = default;
};

// WTimeStamper::UpdateHouseRestrictionTS 0x006B2990: takes `ts` as the new
// house stamp unless it is older than `stamp` (u8 stamps: more than 127
// apart the order wraps); an equal stamp is taken.
bool update_house_restriction_ts(std::uint8_t& stamp, std::uint8_t ts) noexcept;

}  // namespace dereth::sim
