// Housing's entry restrictions on the weenie side: RestrictionDB
// (PORTAL/engine_house/RestrictionDB.c) and the ACCWeenieObject questions
// CObjCell::check_entry_restrictions asks (AC/accobject/ACCWeenieObj.c).
#include "dereth/sim/cells/restriction_db.hpp"

#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"

namespace dereth::sim {

namespace {

// ObjectDescriptionFlags (pwd._bitfield) bits CanBypassMoveRestrictions asks.
constexpr std::uint32_t kAdmin = 0x00100000u;
constexpr std::uint32_t kImmuneCellRestrictions = 0x00400000u;

}  // namespace

RestrictionDB RestrictionDB::from_wire(const protocol::HouseRestrictions& wire) {
  RestrictionDB db;
  db.bitmask = wire.open_status;
  db.monarch_iid = wire.monarch_guid;
  for (const protocol::RestrictionEntry& e : wire.entries) db.table.emplace(e.guid, e.value);
  return db;
}

// RestrictionDB::IsAllowedIn 0x005AE8F0
bool RestrictionDB::is_allowed_in(std::uint32_t guest, std::uint32_t monarch) const noexcept {
  if ((bitmask & 1u) != 0) return true;
  if (monarch_iid != 0 && monarch == monarch_iid) return true;
  return guest != 0 && table.contains(guest);
}

// ACCWeenieObject::CanBypassMoveRestrictions 0x0058C500: both bits, not either.
bool PhysicsObj::weenie_can_bypass_move_restrictions() const noexcept {
  if (!weenie_) return false;
  return (weenie_->bitfield & kAdmin) != 0 && (weenie_->bitfield & kImmuneCellRestrictions) != 0;
}

// ACCWeenieObject::CanMoveInto 0x0058DA40: this object's weenie is the
// house (the cell's restriction object); `mover` the weenie walking in.
bool PhysicsObj::weenie_can_move_into(PhysicsObj* mover) const {
  if (!weenie_) return false;
  if (mover == nullptr || !mover->weenie_) return false;
  const WeenieTraits& house = *weenie_;
  if (house.house_owner_iid == 0 || house.house_owner_iid == mover->id() || !house.db) return true;
  if (house.db->is_allowed_in(mover->id(), mover->weenie_->monarch)) return true;
  // Refused: the house's restriction script plays on the mover
  // (ACCWeenieObject::PlayScript 0x0058C480, scaled by a tenth of its speed:
  // GetGlobalVelocity 0x0058C4C0 is CPhysicsObj::get_velocity's
  // cached_velocity), unless the player turned the effects off.
  if (house.pscript != 0 && !context_->disable_house_restriction_effects) {
    const float speed = std::sqrt(glm::dot(mover->cached_velocity(), mover->cached_velocity()));
    mover->play_script(house.pscript, speed * 0.1f);
  }
  return false;
}

// WTimeStamper::UpdateHouseRestrictionTS 0x006B2990
bool update_house_restriction_ts(std::uint8_t& stamp, std::uint8_t ts) noexcept {
  const int diff = static_cast<int>(ts) - static_cast<int>(stamp);
  const bool older = (diff > 127 || diff < -127) ? stamp < ts : ts < stamp;
  if (older) return false;
  stamp = ts;
  return true;
}

// ClientHousingSystem::Handle_House__Recv_UpdateRestrictions 0x005859E0
bool SmartBox::handle_update_restrictions(const protocol::UpdateRestrictions& message) {
  if (message.object == 0 || message.object == player_id_) return false;
  // ClientObjMaintSystem::GetWeenieObject
  PhysicsObj* object = objects_.get_object(message.object);
  if (object == nullptr || !object->weenie()) return false;
  WeenieTraits weenie = *object->weenie();
  // ACCWeenieObject::UpdateHouseRestrictionTS 0x0058CB50
  if (!update_house_restriction_ts(weenie.house_ts, message.timestamp)) return false;
  // ACCWeenieObject::SetRestrictions 0x005858A0
  weenie.db = RestrictionDB::from_wire(message.db);
  object->set_weenie(std::move(weenie));
  return true;
}

}  // namespace dereth::sim
