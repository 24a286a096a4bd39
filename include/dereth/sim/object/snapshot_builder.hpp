#pragma once
// Builds the immutable RenderSnapshot after a tick (render_snapshot.hpp):
// objects in local-id order with their part poses and lights, then the
// effects' emitters and sound events. It reads the world and changes nothing.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "dereth/protocol/obj_desc.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class EffectsSink;
class GmSmartBoxUi;
class PhysicsObj;
class SmartBox;

// Objects outside the world (no cell) and parented children that are not
// drawn are still published, flagged, so the renderer decides. `statics`
// (the world's static objects: landblock and EnvCell stabs) follow the
// SmartBox's objects, with LocalId::None and guid 0. `landscape` (the
// loaded landblocks' buildings and EnvCells) is shared, not copied. `sky`
// is the world's game-clock time (none before a TimeSync). `portal` is the
// world's gmSmartBoxUI (null: no portal space, the world drawn).
[[nodiscard]] SnapshotPtr build_render_snapshot(const SmartBox& box, const EffectsSink& effects, std::uint64_t tick,
                                                std::span<PhysicsObj* const> statics = {},
                                                std::shared_ptr<const LandscapeSnapshot> landscape = {},
                                                std::optional<SkyTime> sky = std::nullopt,
                                                const GmSmartBoxUi* portal = nullptr);

// What the renderer draws of gmSmartBoxUI's portal space at `now` (the
// world's clock, the UI's last UseTime): its state, whether the viewport
// hides the world, the fade (the view-distance fraction), the tunnel's time
// since its loop began and the camera's heading, and the portal sounds so far.
[[nodiscard]] PortalSpace publish_portal_space(const GmSmartBoxUi& ui, double now) noexcept;

// An object's ObjDesc on its published parts and object: each texture
// change on its part (indices past the parts are dropped), the base palette
// and the subpalettes in colours, as ObjDesc::UnPack 0x005ABCF0 lists them
// (Subpalette::UnPack, ObjDesc::AddSubpalette: dat::add_subpalette).
// Part changes are not applied (the part array keeps the Setup's GfxObjs).
void publish_obj_desc(const protocol::ObjDesc& desc, ObjectSnapshot& out);

}  // namespace dereth::sim
