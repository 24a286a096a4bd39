#pragma once
// The turning model on the character list and the creation screen: one
// object (a CharGen sex's Setup with its ObjDesc) in front of a camera,
// built as a sim::RenderSnapshot so the renderer draws it as it draws any
// object: the app builds the snapshot, the renderer reads snapshot types
// only. The panels sit on the left; the camera frames the model on the right.

#include <cstdint>
#include <memory>
#include <optional>

#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/chargen/character_builder.hpp"
#include "dereth/dat/char_gen.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::app {

// What the preview draws: a Setup (0x02...) and the ObjDesc applied to it.
struct PreviewModel {
  std::uint32_t setup = 0;
  dat::CharGenObjDesc desc;
  bool operator==(const PreviewModel&) const = default;
};

// A CharGen ObjDesc's palette as the snapshot carries it: its base palette
// and its subpalettes in colours, listed as ObjDesc::AddSubpalette keeps
// them (gmCG3DView::Update builds the preview's ObjDesc with it).
[[nodiscard]] sim::PaletteChange palette_change(const dat::CharGenObjDesc& desc);

// The builder's choices: its preview Setup and ObjDesc (sex, hair style,
// eyes, nose, mouth, skin, hair and eye colours).
[[nodiscard]] PreviewModel preview_model(const chargen::CharacterBuilder& builder);
// A character the server describes no further (F658 carries no
// appearance): the CharGen's first heritage and its first sex, as a new
// builder starts.
[[nodiscard]] PreviewModel default_preview_model(const chargen::CharGenData& data);

// Seconds for one full turn of the model.
inline constexpr double kPreviewTurnSeconds = 8.0;

class CharacterPreview {
 public:
  // `portal` must outlive the preview; the CharGen (for the list's default
  // model) is read from it on first use.
  explicit CharacterPreview(const dat::DatFile& portal) : records_(&portal) {}

  // The CharGen of the portal DAT, or null when it has none (logged once).
  [[nodiscard]] const chargen::CharGenData* char_gen();
  // The character screens' portal records (there is no world yet).
  [[nodiscard]] dat::RecordCache& records() noexcept { return records_; }

  // The snapshot of `model` at `seconds` (its heading turns once per
  // kPreviewTurnSeconds, starting face on): the Setup's parts at its Resting
  // placement (else Default), the ObjDesc's part changes and texture changes
  // applied and its palette (palette_change) on the object. Valid until the
  // next call. A Setup that does not load gives an object with no parts (the
  // renderer's marker).
  [[nodiscard]] const sim::RenderSnapshot& snapshot(const PreviewModel& model, double seconds);
  // A camera framing the model's height on the right half of a width x height picture.
  [[nodiscard]] render::Camera camera(const PreviewModel& model, int width, int height);

 private:
  const dat::Setup* setup(std::uint32_t id);
  // The character screens' portal records (there is no world yet): the
  // CharGen, SkillTable and PaletteSets, each read once.
  dat::RecordCache records_;
  std::optional<chargen::CharGenData> char_gen_;
  bool char_gen_tried_ = false;
  sim::RenderSnapshot snapshot_;
};

}  // namespace dereth::app
