#include "dereth/app/character_preview.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/gtc/quaternion.hpp>

#include "dereth/core/log.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/sim/object/dat_part_array.hpp"

namespace dereth::app {

namespace {
constexpr float kFovDegrees = 40.0F;
constexpr float kFill = 0.75F;          // of the picture's height the model's height takes
constexpr float kAcross = 0.6F;         // where the model stands: this far right of centre, in half-widths
constexpr float kDefaultHeight = 1.8F;  // metres, when the Setup gives none
}  // namespace

sim::PaletteChange palette_change(const dat::CharGenObjDesc& desc) {
  sim::PaletteChange out;
  if (desc.subpalettes.empty()) return out;
  out.base_palette = desc.palette;
  std::vector<dat::Subpalette> list;
  for (const auto& s : desc.subpalettes) {
    dat::add_subpalette(list, dat::unpack_subpalette(s.palette, s.offset, s.num_colors));
  }
  for (const auto& s : list) out.subpalettes.push_back({s.palette, s.offset, s.num_colors});
  return out;
}

PreviewModel preview_model(const chargen::CharacterBuilder& builder) {
  return PreviewModel{builder.preview_setup(), builder.preview_obj_desc()};
}

PreviewModel default_preview_model(const chargen::CharGenData& data) {
  return preview_model(chargen::CharacterBuilder(data));
}

const chargen::CharGenData* CharacterPreview::char_gen() {
  if (!char_gen_tried_) {
    char_gen_tried_ = true;
    if (auto d = chargen::load_char_gen_data(records_)) {
      char_gen_ = std::move(*d);
    } else {
      core::logger(core::Module::App)->warn("character preview: no CharGen: {}", d.error().message());
    }
  }
  return char_gen_ ? &*char_gen_ : nullptr;
}

// Through the preview's record cache, which logs a Setup that does not load
// once and keeps it (null) with the rest.
const dat::Setup* CharacterPreview::setup(std::uint32_t id) {
  return records_.setup(id).get();
}

const sim::RenderSnapshot& CharacterPreview::snapshot(const PreviewModel& model, double seconds) {
  snapshot_ = sim::RenderSnapshot{};
  snapshot_.time = core::Seconds{seconds};
  sim::ObjectSnapshot o;
  o.id = static_cast<sim::LocalId>(1);
  o.setup_id = model.setup;
  // Face on (the model's forward, +Y, towards the camera at -Y), then turning.
  const double turns = std::fmod(seconds / kPreviewTurnSeconds, 1.0);
  const auto heading = static_cast<float>(std::numbers::pi + 2.0 * std::numbers::pi * turns);
  o.root = core::Frame(glm::vec3(0.0F), glm::angleAxis(heading, glm::vec3(0.0F, 0.0F, 1.0F)));
  if (const dat::Setup* s = setup(model.setup)) {
    const dat::AnimationFrame* placed = nullptr;
    for (const std::uint32_t key : {sim::placement::Resting, sim::placement::Default}) {
      for (const auto& p : s->placement_frames) {
        if (p.key == key && placed == nullptr) placed = &p.frame;
      }
    }
    o.parts.resize(s->parts.size());
    for (std::size_t i = 0; i < s->parts.size(); ++i) {
      sim::PartPose& part = o.parts[i];
      part.gfx_obj = s->parts[i];
      if (i < s->default_scales.size()) part.scale = s->default_scales[i];
      core::Frame local;
      if (placed != nullptr && i < placed->part_frames.size()) {
        local = core::Frame(placed->part_frames[i].origin, placed->part_frames[i].orientation);
      }
      part.frame = core::Frame::combine(o.root, local);
    }
    for (const auto& c : model.desc.part_changes) {
      if (c.part < o.parts.size()) o.parts[c.part].gfx_obj = c.gfx_obj;
    }
    for (const auto& c : model.desc.texture_changes) {
      if (c.part < o.parts.size()) o.parts[c.part].texture_changes.push_back({c.old_texture, c.new_texture});
    }
  }
  o.palette = palette_change(model.desc);
  snapshot_.objects.push_back(std::move(o));
  return snapshot_;
}

render::Camera CharacterPreview::camera(const PreviewModel& model, int width, int height) {
  float h = kDefaultHeight;
  if (const dat::Setup* s = setup(model.setup); s != nullptr && s->height > 0.1F && std::isfinite(s->height)) {
    h = std::min(s->height, 20.0F);
  }
  const float tan_half = std::tan(kFovDegrees * 0.5F * std::numbers::pi_v<float> / 180.0F);
  const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0F;
  const float distance = (h / kFill) * 0.5F / tan_half;
  // The camera looks past the model's left so that it stands right of centre.
  const float shift = kAcross * distance * tan_half * aspect;
  const glm::vec3 at(-shift, 0.0F, h * 0.5F);
  render::Camera c = render::Camera::look_at(at + glm::vec3(0.0F, -distance, 0.0F), at);
  c.fov_y_degrees = kFovDegrees;
  c.near_plane = 0.05F;
  c.far_plane = distance * 4.0F + 10.0F;
  return c;
}

}  // namespace dereth::app
