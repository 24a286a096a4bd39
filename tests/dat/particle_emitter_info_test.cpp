#include "dereth/dat/particle_emitter_info.hpp"

#include <catch2/catch.hpp>

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x320009C4;

ParticleEmitterInfo sample_info() {
  ParticleEmitterInfo p;
  p.id = kId;
  p.emitter_type = EmitterType::BirthratePerSec;
  p.particle_type = ParticleType::Explode;
  p.gfx_obj_id = 0x01000123;
  p.hw_gfx_obj_id = 0x01000124;
  p.birthrate = 0.2;
  p.max_particles = 50;
  p.initial_particles = 5;
  p.total_particles = 200;
  p.total_seconds = 3.5;
  p.lifespan = 1.25;
  p.lifespan_rand = 0.5;
  p.offset_dir = {0, 0, 1};
  p.min_offset = 0.1F;
  p.max_offset = 0.2F;
  p.a = {1, 0, 0};
  p.min_a = 0.5F;
  p.max_a = 1.5F;
  p.b = {0, 0, -9.8F};
  p.min_b = 1;
  p.max_b = 1;
  p.c = {0, 1, 0};
  p.min_c = 0.25F;
  p.max_c = 0.75F;
  p.start_scale = 0.5F;
  p.final_scale = 2.0F;
  p.scale_rand = 0.1F;
  p.start_trans = 0.0F;
  p.final_trans = 1.0F;
  p.trans_rand = 0.05F;
  p.is_parent_local = 1;
  return p;
}

}  // namespace

TEST_CASE("ParticleEmitterInfo: 176 bytes in wire order and a round trip", "[dat][particle_emitter_info]") {
  const ParticleEmitterInfo p = sample_info();
  const auto bytes = write_particle_emitter_info(p);
  REQUIRE(bytes.size() == ParticleEmitterInfo::kRecordSize);
  CHECK(read_particle_emitter_info(bytes, kId).value() == p);

  ByteReader r(bytes, "emitter");
  REQUIRE(r.skip(8, "id, unknown").has_value());
  CHECK(r.i32("emitter_type").value() == 1);
  CHECK(r.i32("particle_type").value() == 6);
  CHECK(r.u32("gfx").value() == 0x01000123U);
  CHECK(r.u32("hw gfx").value() == 0x01000124U);
  CHECK(r.f64("birthrate").value() == 0.2);
  REQUIRE(r.skip(12, "particle counts").has_value());
  CHECK(r.f64("total_seconds").value() == 3.5);
  CHECK(r.f64("lifespan").value() == 1.25);  // lifespan before lifespan_rand on the wire
  CHECK(r.f64("lifespan_rand").value() == 0.5);
  REQUIRE(r.skip(172 - 68, "vectors and scales").has_value());
  CHECK(r.u32("is_parent_local").value() == 1U);
}

TEST_CASE("ParticleEmitterInfo: defaults and unnamed enum values round-trip", "[dat][particle_emitter_info]") {
  ParticleEmitterInfo p;
  p.id = kId;
  CHECK(read_particle_emitter_info(write_particle_emitter_info(p), kId).value() == p);
  CHECK(p.min_a == 1.0F);
  CHECK(p.final_scale == 1.0F);
  p.emitter_type = static_cast<EmitterType>(9);
  p.particle_type = static_cast<ParticleType>(-3);
  CHECK(read_particle_emitter_info(write_particle_emitter_info(p), kId).value() == p);
  CHECK(emitter_type_name(p.emitter_type).empty());
  CHECK(particle_type_name(ParticleType::ParabolicGVGAGR) == "ParabolicGVGAGR");
  CHECK(emitter_type_name(EmitterType::BirthratePerMeter) == "BirthratePerMeter");
  dereth::core::JsonWriter j;
  write_json(j, p);
  CHECK(j.str().find(R"("emitter_type":9,"particle_type":-3)") != std::string::npos);
}

TEST_CASE("ParticleEmitterInfo: every truncation and trailing bytes are errors", "[dat][particle_emitter_info]") {
  const auto bytes = write_particle_emitter_info(sample_info());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto p = read_particle_emitter_info(std::span(bytes.data(), n), kId);
    REQUIRE_FALSE(p.has_value());
    CHECK(p.error().kind == ErrorKind::Truncated);
    CHECK(p.error().context == "DAT 0x320009C4 ParticleEmitterInfo");
  }
  auto longer = bytes;
  longer.push_back(0);
  auto p = read_particle_emitter_info(longer, kId);
  REQUIRE_FALSE(p.has_value());
  CHECK(p.error().kind == ErrorKind::Trailing);
  CHECK(p.error().offset == 176);
  auto wrong = read_particle_emitter_info(bytes, kId + 1);
  REQUIRE_FALSE(wrong.has_value());
  CHECK(wrong.error().kind == ErrorKind::Invalid);
}

TEST_CASE("ParticleEmitterInfo: JSON names the enums", "[dat][particle_emitter_info]") {
  dereth::core::JsonWriter j;
  write_json(j, sample_info());
  const std::string& out = j.str();
  CHECK(out.rfind(R"({"id":"0x320009C4","unknown":0,"emitter_type":"BirthratePerSec","particle_type":"Explode")", 0) ==
        0);
  CHECK(out.find(R"("hw_gfx_obj_id":"0x01000124")") != std::string::npos);
}
