// What the image libraries under OpenCV print. libpng, libjpeg and OpenCV's own logger write
// straight to the standard error stream ("libpng error: Read Error", "Premature end of JPEG
// file", "OpenCV(4.6.0) ...bitstrm.cpp:110: error: (-2:Unspecified error) ..."): raw library text
// a user should not see. The loader catches it and says it in its own message instead.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace coalesce::imageio {

// Runs `work` with file descriptor 2 pointing at an anonymous in-memory file and returns what was
// written there. fd 2 is one per process, so calls are serialized; while one runs, anything
// another thread writes to stderr is caught too (and dropped).
std::string capture_stderr(const std::function<void()>& work);

// The gist of captured text in plain words, at most about 200 bytes: library prefixes and
// OpenCV's "OpenCV(...) file:line: error: (code) ... in function '...'" wrapping removed,
// lines joined with "; ". Empty when nothing was said.
std::string plain_decoder_text(std::string_view captured);

}  // namespace coalesce::imageio
