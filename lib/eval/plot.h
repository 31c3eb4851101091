// The pictures of the learning side: top-k accuracy curves and top-1 by game phase of the
// models `hane eval` measured, and a trainer's learning curve. Each writes its data file first
// (plain columns, a '#' header naming them) and draws the SVG with gnuplot when it is installed
// (util/plot.h).
#pragma once

#include <string>
#include <vector>

#include "eval/evaluate.h"

namespace hane {

/// Writes DIR/topk.dat (rows k = 1..10: k, then each model's top-k accuracy in percent) and
/// DIR/phases.dat (rows per game phase: index, phase name, then each model's top-1 in percent
/// there), and with gnuplot DIR/topk.svg and DIR/phases.svg. `labels` names the models (one per
/// result, in order). Returns a line saying what was written, or why the pictures were not.
std::string write_eval_plots(const std::vector<std::string>& labels, const std::vector<EvalResult>& results,
                             const std::string& dir);

/// One point of a learning curve: after `x` epochs (softmax) or at `x` leaves (decision tree).
struct LearningPoint {
  double x = 0;
  double top1 = 0;            // validation top-1, 0..1
  double log_likelihood = 0;  // validation mean ln P(played), nats
};

/// Writes STEM-curve.dat (rows "x top1_percent log_likelihood") and with gnuplot
/// STEM-curve.svg (validation log-likelihood and top-1 against `x_label`, two y axes). Returns
/// a line saying what was written, or why the picture was not.
std::string write_learning_curve(const std::string& stem, const std::string& title, const std::string& x_label,
                                 const std::vector<LearningPoint>& points);

/// The files write_eval_plots(DIR) and write_learning_curve(STEM) write (data, gnuplot script
/// and its log, pictures), for a command to check before it works.
std::vector<std::string> eval_plot_files(const std::string& dir);
std::vector<std::string> learning_curve_files(const std::string& stem);

/// The stem of a model file's companion files: the path without its extension
/// ("out/kgs.model" -> "out/kgs").
std::string model_stem(const std::string& model_path);

}  // namespace hane
