#include "dereth/dat/particle_emitter_info.hpp"

#include <array>

namespace dereth::dat {

namespace {

using core::JsonWriter;

constexpr std::array<std::string_view, 3> kEmitterTypeNames = {"Unknown", "BirthratePerSec", "BirthratePerMeter"};
constexpr std::array<std::string_view, 13> kParticleTypeNames = {
    "Unknown", "Still",         "LocalVelocity",   "ParabolicLVGA", "ParabolicLVGAGR", "Swarm",          "Explode",
    "Implode", "ParabolicLVLA", "ParabolicLVLALR", "ParabolicGVGA", "ParabolicGVGAGR", "GlobalVelocity",
};

template <std::size_t N>
void json_enum(JsonWriter& j, const std::array<std::string_view, N>& names, std::int32_t value) {
  if (value >= 0 && static_cast<std::size_t>(value) < N) {
    j.string(names[static_cast<std::size_t>(value)]);
  } else {
    j.number(value);
  }
}

}  // namespace

std::string_view emitter_type_name(EmitterType type) noexcept {
  const auto v = static_cast<std::int32_t>(type);
  return v >= 0 && static_cast<std::size_t>(v) < kEmitterTypeNames.size()
             ? kEmitterTypeNames[static_cast<std::size_t>(v)]
             : std::string_view{};
}

std::string_view particle_type_name(ParticleType type) noexcept {
  const auto v = static_cast<std::int32_t>(type);
  return v >= 0 && static_cast<std::size_t>(v) < kParticleTypeNames.size()
             ? kParticleTypeNames[static_cast<std::size_t>(v)]
             : std::string_view{};
}

Result<ParticleEmitterInfo> read_particle_emitter_info(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "ParticleEmitterInfo");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  ParticleEmitterInfo p;
  p.id = id;
  DERETH_TRY(p.unknown, r.u32("unknown"));
  DERETH_TRY(const std::int32_t emitter_type, r.i32("emitter_type"));
  p.emitter_type = static_cast<EmitterType>(emitter_type);
  DERETH_TRY(const std::int32_t particle_type, r.i32("particle_type"));
  p.particle_type = static_cast<ParticleType>(particle_type);
  DERETH_TRY(p.gfx_obj_id, r.u32("gfx_obj_id"));
  DERETH_TRY(p.hw_gfx_obj_id, r.u32("hw_gfx_obj_id"));
  DERETH_TRY(p.birthrate, r.f64("birthrate"));
  DERETH_TRY(p.max_particles, r.i32("max_particles"));
  DERETH_TRY(p.initial_particles, r.i32("initial_particles"));
  DERETH_TRY(p.total_particles, r.i32("total_particles"));
  DERETH_TRY(p.total_seconds, r.f64("total_seconds"));
  DERETH_TRY(p.lifespan, r.f64("lifespan"));
  DERETH_TRY(p.lifespan_rand, r.f64("lifespan_rand"));
  DERETH_TRY(p.offset_dir, read_vec3(r, "offset_dir"));
  DERETH_TRY(p.min_offset, r.f32("min_offset"));
  DERETH_TRY(p.max_offset, r.f32("max_offset"));
  DERETH_TRY(p.a, read_vec3(r, "a"));
  DERETH_TRY(p.min_a, r.f32("min_a"));
  DERETH_TRY(p.max_a, r.f32("max_a"));
  DERETH_TRY(p.b, read_vec3(r, "b"));
  DERETH_TRY(p.min_b, r.f32("min_b"));
  DERETH_TRY(p.max_b, r.f32("max_b"));
  DERETH_TRY(p.c, read_vec3(r, "c"));
  DERETH_TRY(p.min_c, r.f32("min_c"));
  DERETH_TRY(p.max_c, r.f32("max_c"));
  DERETH_TRY(p.start_scale, r.f32("start_scale"));
  DERETH_TRY(p.final_scale, r.f32("final_scale"));
  DERETH_TRY(p.scale_rand, r.f32("scale_rand"));
  DERETH_TRY(p.start_trans, r.f32("start_trans"));
  DERETH_TRY(p.final_trans, r.f32("final_trans"));
  DERETH_TRY(p.trans_rand, r.f32("trans_rand"));
  DERETH_TRY(p.is_parent_local, r.u32("is_parent_local"));
  DERETH_CHECK(r.expect_end());
  return p;
}

std::vector<std::uint8_t> write_particle_emitter_info(const ParticleEmitterInfo& p) {
  ByteWriter w;
  w.u32(p.id);
  w.u32(p.unknown);
  w.i32(static_cast<std::int32_t>(p.emitter_type));
  w.i32(static_cast<std::int32_t>(p.particle_type));
  w.u32(p.gfx_obj_id);
  w.u32(p.hw_gfx_obj_id);
  w.f64(p.birthrate);
  w.i32(p.max_particles);
  w.i32(p.initial_particles);
  w.i32(p.total_particles);
  w.f64(p.total_seconds);
  w.f64(p.lifespan);
  w.f64(p.lifespan_rand);
  write_vec3(w, p.offset_dir);
  w.f32(p.min_offset);
  w.f32(p.max_offset);
  write_vec3(w, p.a);
  w.f32(p.min_a);
  w.f32(p.max_a);
  write_vec3(w, p.b);
  w.f32(p.min_b);
  w.f32(p.max_b);
  write_vec3(w, p.c);
  w.f32(p.min_c);
  w.f32(p.max_c);
  w.f32(p.start_scale);
  w.f32(p.final_scale);
  w.f32(p.scale_rand);
  w.f32(p.start_trans);
  w.f32(p.final_trans);
  w.f32(p.trans_rand);
  w.u32(p.is_parent_local);
  return std::move(w).take();
}

void write_json(JsonWriter& j, const ParticleEmitterInfo& p) {
  j.begin_object();
  j.key("id").hex(p.id);
  j.key("unknown").number(p.unknown);
  j.key("emitter_type");
  json_enum(j, kEmitterTypeNames, static_cast<std::int32_t>(p.emitter_type));
  j.key("particle_type");
  json_enum(j, kParticleTypeNames, static_cast<std::int32_t>(p.particle_type));
  j.key("gfx_obj_id").hex(p.gfx_obj_id);
  j.key("hw_gfx_obj_id").hex(p.hw_gfx_obj_id);
  j.key("birthrate").f64(p.birthrate);
  j.key("max_particles").number(p.max_particles);
  j.key("initial_particles").number(p.initial_particles);
  j.key("total_particles").number(p.total_particles);
  j.key("total_seconds").f64(p.total_seconds);
  j.key("lifespan").f64(p.lifespan);
  j.key("lifespan_rand").f64(p.lifespan_rand);
  j.key("offset_dir");
  json_vec3(j, p.offset_dir);
  j.key("min_offset").f32(p.min_offset);
  j.key("max_offset").f32(p.max_offset);
  j.key("a");
  json_vec3(j, p.a);
  j.key("min_a").f32(p.min_a);
  j.key("max_a").f32(p.max_a);
  j.key("b");
  json_vec3(j, p.b);
  j.key("min_b").f32(p.min_b);
  j.key("max_b").f32(p.max_b);
  j.key("c");
  json_vec3(j, p.c);
  j.key("min_c").f32(p.min_c);
  j.key("max_c").f32(p.max_c);
  j.key("start_scale").f32(p.start_scale);
  j.key("final_scale").f32(p.final_scale);
  j.key("scale_rand").f32(p.scale_rand);
  j.key("start_trans").f32(p.start_trans);
  j.key("final_trans").f32(p.final_trans);
  j.key("trans_rand").f32(p.trans_rand);
  j.key("is_parent_local").number(p.is_parent_local);
  j.end_object();
}

}  // namespace dereth::dat
