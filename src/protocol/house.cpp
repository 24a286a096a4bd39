#include "dereth/protocol/house.hpp"

#include "dereth/protocol/login.hpp"

namespace dereth::protocol {

std::vector<std::uint8_t> encode_update_restrictions(std::uint32_t target, std::uint32_t sequence,
                                                     const UpdateRestrictions& m) {
  ByteWriter w;
  w.u8(m.timestamp);
  w.u32(m.object);
  write_house_restrictions(w, m.db);
  const auto payload = std::move(w).take();
  return encode_game_event(target, sequence, house_event::UpdateRestrictions, payload);
}

Result<UpdateRestrictions> decode_update_restrictions(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0/0248 UpdateRestrictions");
  DERETH_CHECK(expect_game_event(r, house_event::UpdateRestrictions));
  UpdateRestrictions m;
  DERETH_TRY(m.timestamp, r.u8("timestamp"));
  DERETH_TRY(m.object, r.u32("object"));
  DERETH_TRY(m.db, read_house_restrictions(r));
  DERETH_CHECK(r.expect_end());
  return m;
}

}  // namespace dereth::protocol
