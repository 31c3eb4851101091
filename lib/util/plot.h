// Plots drawn by gnuplot, when it is installed: one helper so every command writes its data
// file first and skips the picture, saying why, when gnuplot is absent or fails.
#pragma once

#include <string>

namespace hane {

/// True when `gnuplot` runs from PATH (checked once per process).
bool gnuplot_available();

/// Writes `script` (gnuplot commands, which name their own output files) to `script_path` and
/// runs gnuplot on it, its messages going to `script_path` with ".log" instead of ".gp".
/// Returns "" on success, else why nothing was drawn: "gnuplot not found (Debian package
/// gnuplot-nox)", "gnuplot failed (see LOG)", "cannot write SCRIPT". Thread-safe.
std::string run_gnuplot(const std::string& script_path, const std::string& script);

/// `text` quoted for a gnuplot string in single quotes (a quote is doubled).
std::string gnuplot_quote(const std::string& text);

}  // namespace hane
