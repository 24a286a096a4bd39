#include "dereth/dat/physics_script.hpp"

#include <span>

#include "dereth/dat/msvcr70_qsort.hpp"

namespace dereth::dat {

namespace {

constexpr std::size_t kEntryMinSize = 8 + 8;  // f64 start time + hook type and direction

}  // namespace

// PhysicsScriptData::Sort 0x00521600
int physics_script_data_sort(const PhysicsScriptHook& a, const PhysicsScriptHook& b) noexcept {
  return a.start_time >= b.start_time ? 1 : -1;
}

void sort_hooks_by_start_time(std::vector<PhysicsScriptHook>& hooks) {
  // qsort(hooks, n, 4, PhysicsScriptData::Sort) in PhysicsScript::UnPack 0x005218B0
  msvcr70_qsort(std::span<PhysicsScriptHook>(hooks), physics_script_data_sort);
}

Result<PhysicsScript> read_physics_script(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "PhysicsScript");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  PhysicsScript script;
  script.id = id;
  DERETH_TRY(const std::size_t count, read_count(r, kEntryMinSize, "num_hooks"));
  script.hooks.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    PhysicsScriptHook entry;
    DERETH_TRY(entry.start_time, r.f64("hooks.start_time"));
    DERETH_TRY(entry.hook, read_animation_hook(r));
    script.hooks.push_back(std::move(entry));
  }
  DERETH_CHECK(r.align4("pad"));
  DERETH_CHECK(r.expect_end());
  // PhysicsScript::UnPack 0x005218B0 sorts the decoded entries by start time.
  sort_hooks_by_start_time(script.hooks);
  return script;
}

std::vector<std::uint8_t> write_physics_script(const PhysicsScript& script) {
  ByteWriter w;
  w.u32(script.id);
  w.u32(static_cast<std::uint32_t>(script.hooks.size()));
  for (const auto& entry : script.hooks) {
    w.f64(entry.start_time);
    write_animation_hook(w, entry.hook);
  }
  w.align4();
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const PhysicsScript& script) {
  j.begin_object();
  j.key("id").hex(script.id);
  j.key("length").f64(script.length());
  j.key("hooks").begin_array();
  for (const auto& entry : script.hooks) {
    j.begin_object();
    j.key("start_time").f64(entry.start_time);
    j.key("hook");
    write_json(j, entry.hook);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

}  // namespace dereth::dat
