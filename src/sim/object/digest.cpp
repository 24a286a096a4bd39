#include "dereth/sim/object/digest.hpp"

#include <bit>

#include <fmt/format.h>

#include "dereth/core/json_writer.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/smart_box.hpp"

namespace dereth::sim {

namespace {

constexpr std::uint64_t kFnvPrime = 0x100000001B3ull;
constexpr std::uint32_t kHidden = 0x4000;  // PhysicsState Hidden

void hash_frame(Fnv1a64& h, const core::Frame& f) {
  h.f32(f.origin.x);
  h.f32(f.origin.y);
  h.f32(f.origin.z);
  h.f32(f.orientation().w);
  h.f32(f.orientation().x);
  h.f32(f.orientation().y);
  h.f32(f.orientation().z);
}

void hash_vec(Fnv1a64& h, const glm::vec3& v) {
  h.f32(v.x);
  h.f32(v.y);
  h.f32(v.z);
}

void write_vec(core::JsonWriter& j, const glm::vec3& v) {
  j.begin_array().f32(v.x).f32(v.y).f32(v.z).end_array();
}

std::string hex64(std::uint64_t v) {
  return fmt::format("0x{:016X}", v);
}

}  // namespace

void Fnv1a64::bytes(const void* data, std::size_t size) noexcept {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    h_ ^= p[i];
    h_ *= kFnvPrime;
  }
}

void hash_object(Fnv1a64& h, const PhysicsObj& object) {
  h.u32(object.id());
  h.u32(static_cast<std::uint32_t>(object.local_id()));
  for (std::uint16_t stamp : object.update_times()) h.u32(stamp);
  h.u32(object.state());
  h.u32(object.transient_state());
  h.u32(object.position().objcell_id);
  hash_frame(h, object.position().frame);
  hash_vec(h, object.velocity());
  hash_vec(h, object.omega());
}

std::uint64_t world_digest(const SmartBox& box) {
  Fnv1a64 h;
  for (const PhysicsObj* object : box.objects().objects()) hash_object(h, *object);
  return h.value();
}

std::uint64_t snapshot_digest(const RenderSnapshot& snapshot) {
  Fnv1a64 h;
  for (const ObjectSnapshot& o : snapshot.objects) {
    h.u32(static_cast<std::uint32_t>(o.id));
    h.u32(o.hidden ? 1u : 0u);
    h.u32(o.no_draw ? 1u : 0u);
    h.f32(o.translucency);
    h.f32(o.scale);
    for (const PartPose& part : o.parts) {
      h.u32(part.gfx_obj);
      hash_frame(h, part.frame);
      hash_vec(h, part.scale);
      h.f32(part.translucency);
      h.f32(part.luminosity);
      h.f32(part.diffuse);
      h.u32(part.no_draw ? 1u : 0u);
    }
  }
  for (const EmitterSnapshot& e : snapshot.emitters) {
    h.u32(static_cast<std::uint32_t>(e.owner));
    h.u32(e.emitter_info_id);
    h.u32(e.logical_id);
    h.u64(e.particles.size());
    for (const ParticleSnapshot& p : e.particles) {
      hash_vec(h, p.position);
      h.f32(p.scale);
      h.f32(p.alpha);
    }
  }
  for (const LightSnapshot& l : snapshot.lights) {
    h.u32(static_cast<std::uint32_t>(l.owner));
    hash_vec(h, l.position);
    h.f32(l.intensity);
  }
  for (const SoundEvent& s : snapshot.sounds) {
    h.u32(static_cast<std::uint32_t>(s.owner));
    h.u32(s.wave_id);
    h.u32(s.sound_type);
    h.f32(s.volume);
  }
  return h.value();
}

void write_digest_line(std::ostream& out, std::uint64_t tick, core::Seconds time, const SmartBox& box,
                       const std::uint64_t* effects_hash) {
  core::JsonWriter j;
  j.begin_object();
  j.key("tick").number(tick);
  j.key("time").f64(time.count());
  j.key("objects").number(static_cast<std::uint64_t>(box.objects().object_count()));
  j.key("hash").string(hex64(world_digest(box)));
  if (effects_hash != nullptr) j.key("effects").string(hex64(*effects_hash));
  j.end_object();
  out << j.str() << '\n';
}

void JsonlTrace::on_message(const MessageRecord& r) {
  core::JsonWriter j;
  j.begin_object();
  j.key("kind").string("message");
  j.key("time").f64(r.time.count());
  if (arrival_) j.key("arrival").f64(*arrival_);
  j.key("opcode").hex(r.opcode);
  j.key("name").string(protocol::opcode_name(r.opcode));
  j.key("guid").hex(r.guid);
  j.key("instance");
  if (r.instance_ts) {
    j.number(*r.instance_ts);
  } else {
    j.null();
  }
  j.key("channel_ts");
  if (r.channel_ts) {
    j.number(*r.channel_ts);
  } else {
    j.null();
  }
  j.key("verdict").string(to_string(r.verdict));
  j.key("replayed").boolean(r.replayed);
  j.key("local_id").number(static_cast<std::uint32_t>(r.local_id));
  j.end_object();
  *out_ << j.str() << '\n';
}

void JsonlTrace::on_script_resolved(LocalId owner, std::uint32_t table, std::uint32_t script_type, float intensity,
                                    std::uint32_t chosen) {
  core::JsonWriter j;
  j.begin_object();
  j.key("kind").string("script-resolved");
  j.key("time").f64(now());
  j.key("owner").number(static_cast<std::uint32_t>(owner));
  j.key("table").hex(table);
  j.key("type").hex(script_type);
  j.key("intensity").f32(intensity);
  j.key("intensity_bits").hex(std::bit_cast<std::uint32_t>(intensity));
  j.key("chosen");
  if (chosen != 0) {
    j.hex(chosen);
  } else {
    j.null();
  }
  j.end_object();
  *out_ << j.str() << '\n';
}

void JsonlTrace::on_script_enqueued(LocalId owner, std::uint32_t script, core::Seconds start) {
  core::JsonWriter j;
  j.begin_object();
  j.key("kind").string("script-enqueued");
  j.key("time").f64(now());
  j.key("owner").number(static_cast<std::uint32_t>(owner));
  j.key("script").hex(script);
  j.key("start").f64(start.count());
  j.end_object();
  *out_ << j.str() << '\n';
}

void JsonlTrace::write_chat(core::Seconds time, std::string_view channel, std::string_view sender,
                            std::string_view text) {
  core::JsonWriter j;
  j.begin_object();
  j.key("kind").string("chat");
  j.key("time").f64(time.count());
  j.key("channel").string(channel);
  j.key("sender").string(sender);
  j.key("text").string(text);
  j.end_object();
  *out_ << j.str() << '\n';
}

void JsonlTrace::on_hook_executed(LocalId owner, dat::HookType type, core::Seconds time) {
  core::JsonWriter j;
  j.begin_object();
  j.key("kind").string("hook");
  j.key("time").f64(time.count());
  j.key("owner").number(static_cast<std::uint32_t>(owner));
  j.key("hook").string(dat::hook_type_name(type));
  j.end_object();
  *out_ << j.str() << '\n';
}

void JsonlTrace::on_emitter(LocalId owner, std::uint32_t emitter_info_id, std::uint32_t emitter_id,
                            EmitterEvent event) {
  core::JsonWriter j;
  j.begin_object();
  j.key("kind").string("emitter");
  j.key("time").f64(now());
  j.key("owner").number(static_cast<std::uint32_t>(owner));
  j.key("emitter_info").hex(emitter_info_id);
  j.key("logical_id").hex(emitter_id);
  j.key("event").string(to_string(event));
  j.end_object();
  *out_ << j.str() << '\n';
}

void JsonlTrace::write_tick(std::uint64_t tick, core::Seconds time, const SmartBox& box) {
  static constexpr const char* kStampNames[] = {"position",       "movement",       "state",    "vector",  "teleport",
                                                "server_control", "force_position", "obj_desc", "instance"};
  for (const PhysicsObj* o : box.objects().objects()) {
    core::JsonWriter j;
    j.begin_object();
    j.key("kind").string("object");
    j.key("tick").number(tick);
    j.key("time").f64(time.count());
    j.key("guid").hex(o->id());
    j.key("local_id").number(static_cast<std::uint32_t>(o->local_id()));
    j.key("instance").number(o->instance());
    j.key("timestamps").begin_object();
    for (std::size_t i = 0; i < o->update_times().size(); ++i) j.key(kStampNames[i]).number(o->update_times()[i]);
    j.end_object();
    j.key("state").hex(o->state());
    j.key("transient_state").hex(o->transient_state());
    j.key("cell").hex(o->position().objcell_id);
    write_vec(j.key("position"), o->position().frame.origin);
    const glm::quat& q = o->position().frame.orientation();
    j.key("orientation").begin_array().f32(q.w).f32(q.x).f32(q.y).f32(q.z).end_array();
    write_vec(j.key("velocity"), o->velocity());
    write_vec(j.key("omega"), o->omega());
    j.key("hidden").boolean((o->state() & kHidden) != 0);
    j.key("parent");
    if (o->parent() != nullptr) {
      j.hex(o->parent()->id());
    } else {
      j.null();
    }
    j.end_object();
    *out_ << j.str() << '\n';
  }
  // The local player's line: where it stands and whether it is on the ground
  // (the scripted walk's trace, docs/trace.md).
  if (const PhysicsObj* p = box.player(); p != nullptr && p->in_cell()) {
    core::JsonWriter j;
    j.begin_object();
    j.key("kind").string("player");
    j.key("tick").number(tick);
    j.key("time").f64(time.count());
    j.key("guid").hex(p->id());
    j.key("cell").hex(p->position().objcell_id);
    write_vec(j.key("position"), p->position().frame.origin);
    j.key("heading").f32(p->get_heading());
    j.key("contact").boolean((p->transient_state() & transient_state::Contact) != 0);
    j.key("on_walkable").boolean((p->transient_state() & transient_state::OnWalkable) != 0);
    j.end_object();
    *out_ << j.str() << '\n';
  }
}

}  // namespace dereth::sim
