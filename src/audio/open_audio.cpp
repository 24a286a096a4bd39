#include "dereth/audio/open_audio.hpp"

#include <utility>

#include "dereth/audio/null_backend.hpp"
#include "dereth/audio/openal_backend.hpp"
#include "dereth/core/log.hpp"

namespace dereth::audio {

OpenedAudio open_audio(const AudioOptions& options) {
  OpenedAudio out;
  const auto log = core::logger(core::Module::Audio);
  if (!options.enabled) {
    out.fallback_reason = "audio is turned off";
  } else {
    auto al = OpenAlBackend::open_device(options.sound, options.device, options.quiet_probe);
    if (al) {
      log->info("audio: OpenAL on \"{}\" at {} Hz", (*al)->device_name(), (*al)->frequency());
      out.backend = std::move(*al);
      return out;
    }
    // Words a player understands, not "OpenAL: alcOpenDevice at offset 0: i/o error".
    const core::Error& e = al.error();
    out.fallback_reason = e.field == "alcOpenDevice"
                              ? "cannot open the sound device (" + e.detail + ")"
                              : "cannot start the sound system (" + e.field + ": " + e.detail + ")";
  }
  log->info("audio: no sound device ({}); sounds go to the null backend", out.fallback_reason);
  out.backend = std::make_unique<NullBackend>(options.sound);
  return out;
}

}  // namespace dereth::audio
