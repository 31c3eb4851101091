#include "eval/plot.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "util/files.h"
#include "util/plot.h"

namespace hane {
namespace {

std::string fixed(double x, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, x);
  return text;
}

}  // namespace

std::string write_eval_plots(const std::vector<std::string>& labels, const std::vector<EvalResult>& results,
                             const std::string& dir) {
  const std::string topk = dir + "/topk.dat", phases = dir + "/phases.dat";
  {
    std::ostringstream f;
    f << "# k, then top-k accuracy (%) of:";
    for (const std::string& l : labels) f << " " << l;
    f << "\n";
    for (int k = 1; k <= EvalResult::kMaxK; ++k) {
      f << k;
      for (const EvalResult& r : results) f << ' ' << fixed(100 * r.accuracy(k), 3);
      f << '\n';
    }
    if (absl::Status s = write_file_atomically(topk, f.str()); !s.ok()) return "plots: " + std::string(s.message());
  }
  {
    std::ostringstream f;
    f << "# phase index, phase (moves), then top-1 accuracy (%) in the phase of:";
    for (const std::string& l : labels) f << " " << l;
    f << "\n";
    for (int p = 0; p < kNumPhases; ++p) {
      f << p << ' ' << kPhaseNames[p];
      for (const EvalResult& r : results) {
        f << ' ' << fixed(r.phase_positions[p] ? 100 * r.phase_top1[p] / r.phase_positions[p] : 0.0, 3);
      }
      f << '\n';
    }
    if (absl::Status s = write_file_atomically(phases, f.str()); !s.ok()) return "plots: " + std::string(s.message());
  }
  std::string script = "set terminal svg size 800,500 dynamic background '#ffffff'\nset grid\nset key bottom right\n";
  script += "set output " + gnuplot_quote(dir + "/topk.svg") + "\n";
  script += "set title 'Top-k accuracy on the test positions'\nset xlabel 'k'\nset ylabel 'accuracy (%)'\n";
  script += "set xrange [1:" + std::to_string(EvalResult::kMaxK) + "]\nset xtics 1\nset yrange [0:*]\n";
  script += "plot ";
  for (size_t i = 0; i < results.size(); ++i) {
    script += (i ? ", " : "") + std::string(i ? "''" : gnuplot_quote(topk)) + " using 1:" + std::to_string(i + 2) +
              " with linespoints lw 2 pt 7 title " + gnuplot_quote(labels[i]) + " noenhanced";
  }
  script += "\nset output " + gnuplot_quote(dir + "/phases.svg") + "\n";
  script += "set title 'Top-1 accuracy by game phase'\nset xlabel 'moves'\nset ylabel 'top-1 (%)'\nset key top right\n";
  script += "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n";
  script += "set autoscale x\nset xtics auto\nset yrange [0:*]\nplot ";
  for (size_t i = 0; i < results.size(); ++i) {
    script += (i ? ", " : "") + std::string(i ? "''" : gnuplot_quote(phases)) + " using " + std::to_string(i + 3) +
              (i ? "" : ":xtic(2)") + " title " + gnuplot_quote(labels[i]) + " noenhanced";
  }
  script += "\n";
  const std::string problem = run_gnuplot(dir + "/eval-plots.gp", script);
  if (!problem.empty()) return "plots: " + topk + ", " + phases + "; pictures not drawn: " + problem;
  return "plots: " + dir + "/topk.svg, " + dir + "/phases.svg (data in " + topk + ", " + phases + ")";
}

std::string write_learning_curve(const std::string& stem, const std::string& title, const std::string& x_label,
                                 const std::vector<LearningPoint>& points) {
  const std::string data = stem + "-curve.dat";
  {
    std::ostringstream f;
    f << "# " << x_label << ", validation top-1 (%), validation log-likelihood (mean ln P(played), nats)\n";
    for (const LearningPoint& p : points) {
      f << fixed(p.x, 0) << ' ' << fixed(100 * p.top1, 3) << ' ' << fixed(p.log_likelihood, 5) << '\n';
    }
    if (absl::Status s = write_file_atomically(data, f.str()); !s.ok()) return "learning curve: " + std::string(s.message());
  }
  const std::string svg = stem + "-curve.svg";
  const std::string script =
      "set terminal svg size 800,500 dynamic background '#ffffff'\nset grid\nset key bottom right\n"
      "set output " + gnuplot_quote(svg) + "\n" +
      "set title " + gnuplot_quote(title) + " noenhanced\n" +
      "set xlabel " + gnuplot_quote(x_label) + "\nset ylabel 'validation log-likelihood (nats)'\n" +
      "set y2label 'validation top-1 (%)'\nset ytics nomirror\nset y2tics\n" +
      "plot " + gnuplot_quote(data) + " using 1:3 with linespoints lw 2 pt 7 lc rgb '#224488' title 'log-likelihood', " +
      "'' using 1:2 axes x1y2 with linespoints lw 2 pt 5 lc rgb '#cc3311' title 'top-1'\n";
  if (points.empty()) return "learning curve: no validation points (data in " + data + ")";
  const std::string problem = run_gnuplot(stem + "-curve.gp", script);
  if (!problem.empty()) return "learning curve: " + data + "; picture not drawn: " + problem;
  return "learning curve: " + svg + " (data in " + data + ")";
}

std::vector<std::string> eval_plot_files(const std::string& dir) {
  std::vector<std::string> out;
  for (const char* name : {"topk.dat", "phases.dat", "topk.svg", "phases.svg", "eval-plots.gp", "eval-plots.log"}) {
    out.push_back(dir + "/" + name);
  }
  return out;
}

std::vector<std::string> learning_curve_files(const std::string& stem) {
  std::vector<std::string> out;
  for (const char* suffix : {"-curve.dat", "-curve.svg", "-curve.gp", "-curve.log"}) out.push_back(stem + suffix);
  return out;
}

std::string model_stem(const std::string& model_path) {
  const std::filesystem::path p(model_path);
  return (p.parent_path() / p.stem()).string();
}

}  // namespace hane
