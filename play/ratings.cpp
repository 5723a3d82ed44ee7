#include "play/ratings.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace azg::play {

double elo_to_score(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

EloFit fit_elo(int n, const std::vector<PairScore>& results, int anchor) {
  const double k = std::log(10.0) / 400.0;
  std::vector<PairScore> all = results;
  for (int i = 0; i < n; ++i)
    if (i != anchor) all.push_back({i, anchor, 0.5, 1});  // the weak prior
  Eigen::VectorXd r = Eigen::VectorXd::Zero(n);
  EloFit fit;
  for (fit.iterations = 0; fit.iterations < 100; ++fit.iterations) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(n);
    Eigen::MatrixXd info = Eigen::MatrixXd::Zero(n, n);  // negative Hessian
    for (const auto& g : all) {
      const double p = 1.0 / (1.0 + std::exp(-k * (r[g.a] - r[g.b])));
      const double d = k * (g.score_a - g.games * p);
      grad[g.a] += d;
      grad[g.b] -= d;
      const double w = k * k * g.games * p * (1 - p);
      info(g.a, g.a) += w;
      info(g.b, g.b) += w;
      info(g.a, g.b) -= w;
      info(g.b, g.a) -= w;
    }
    // Fix the anchor: solve on the others.
    Eigen::MatrixXd reduced(n - 1, n - 1);
    Eigen::VectorXd g(n - 1);
    for (int i = 0, ri = 0; i < n; ++i) {
      if (i == anchor) continue;
      g[ri] = grad[i];
      for (int j = 0, rj = 0; j < n; ++j) {
        if (j == anchor) continue;
        reduced(ri, rj++) = info(i, j);
      }
      ++ri;
    }
    const Eigen::VectorXd step = reduced.ldlt().solve(g);
    for (int i = 0, ri = 0; i < n; ++i)
      if (i != anchor) r[i] += step[ri++];
    if (step.cwiseAbs().maxCoeff() < 1e-6) {
      const Eigen::MatrixXd cov = reduced.inverse();
      fit.elo.assign(r.data(), r.data() + n);
      fit.interval.assign(n, 0.0);
      for (int i = 0, ri = 0; i < n; ++i)
        if (i != anchor) fit.interval[i] = 1.96 * std::sqrt(std::max(0.0, cov(ri, ri))), ++ri;
      return fit;
    }
  }
  fit.elo.assign(r.data(), r.data() + n);
  fit.interval.assign(n, 0.0);
  return fit;
}

Sprt::Sprt(double elo0, double elo1, double alpha, double beta) {
  const double p0 = elo_to_score(elo0), p1 = elo_to_score(elo1);
  log_win_ = std::log(p1 / p0);
  log_loss_ = std::log((1 - p1) / (1 - p0));
  lower_ = std::log(beta / (1 - alpha));
  upper_ = std::log((1 - beta) / alpha);
}

Sprt::Decision Sprt::add(double score) {
  llr_ += score * log_win_ + (1 - score) * log_loss_;
  return decision();
}

Sprt::Decision Sprt::decision() const {
  if (llr_ >= upper_) return Decision::kAcceptH1;
  if (llr_ <= lower_) return Decision::kAcceptH0;
  return Decision::kContinue;
}

namespace {
std::string svg_header(int width, int height, const std::string& title) {
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
       "fill=\"white\"/>\n"
    << "<text x=\"" << width / 2 << "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">" << title
    << "</text>\n";
  return s.str();
}
}  // namespace

std::string ratings_svg(const std::vector<std::string>& names, const EloFit& fit,
                        const std::string& title) {
  const int n = static_cast<int>(names.size()), row = 28, left = 220, width = 760,
            height = 60 + n * row + 30;
  double lo = 0, hi = 0;
  for (int i = 0; i < n; ++i) {
    lo = std::min(lo, fit.elo[i] - fit.interval[i]);
    hi = std::max(hi, fit.elo[i] + fit.interval[i]);
  }
  if (hi - lo < 1) hi = lo + 1;
  auto x = [&](double e) { return left + (e - lo) / (hi - lo) * (width - left - 40); };
  std::ostringstream s;
  s << svg_header(width, height, title);
  s << "<line x1=\"" << x(0) << "\" y1=\"40\" x2=\"" << x(0) << "\" y2=\"" << height - 30
    << "\" stroke=\"#999\" stroke-dasharray=\"4\"/>\n";
  for (int i = 0; i < n; ++i) {
    const double y = 50 + i * row + row / 2.0;
    s << "<text x=\"10\" y=\"" << y + 4 << "\">" << names[i] << "</text>\n"
      << "<line x1=\"" << x(fit.elo[i] - fit.interval[i]) << "\" y1=\"" << y << "\" x2=\""
      << x(fit.elo[i] + fit.interval[i]) << "\" y2=\"" << y << "\" stroke=\"black\"/>\n"
      << "<circle cx=\"" << x(fit.elo[i]) << "\" cy=\"" << y << "\" r=\"4\" fill=\"steelblue\"/>\n"
      << "<text x=\"" << x(fit.elo[i]) + 8 << "\" y=\"" << y - 6 << "\">" << std::lround(fit.elo[i])
      << " ± " << std::lround(fit.interval[i]) << "</text>\n";
  }
  s << "<text x=\"" << width / 2 << "\" y=\"" << height - 8
    << "\" text-anchor=\"middle\">Elo (95% interval)</text>\n</svg>\n";
  return s.str();
}

std::string progress_svg(const std::vector<double>& steps, const EloFit& fit,
                         const std::string& title, const std::string& x_label,
                         const std::string& y_label) {
  const int width = 760, height = 420, left = 60, bottom = 50, top = 40;
  const int n = static_cast<int>(steps.size());
  double lo = 0, hi = 1, smax = 1;
  for (int i = 0; i < n; ++i) {
    lo = std::min(lo, fit.elo[i] - fit.interval[i]);
    hi = std::max(hi, fit.elo[i] + fit.interval[i]);
    smax = std::max(smax, steps[i]);
  }
  auto x = [&](double v) { return left + v / smax * (width - left - 30); };
  auto y = [&](double e) {
    return height - bottom - (e - lo) / (hi - lo) * (height - bottom - top);
  };
  std::ostringstream s;
  s << svg_header(width, height, title);
  s << "<line x1=\"" << left << "\" y1=\"" << height - bottom << "\" x2=\"" << width - 20
    << "\" y2=\"" << height - bottom << "\" stroke=\"black\"/>\n<line x1=\"" << left << "\" y1=\""
    << top << "\" x2=\"" << left << "\" y2=\"" << height - bottom << "\" stroke=\"black\"/>\n";
  std::string path;
  for (int i = 0; i < n; ++i) {
    path += (i ? " L " : "M ") + std::to_string(x(steps[i])) + " " + std::to_string(y(fit.elo[i]));
    s << "<line x1=\"" << x(steps[i]) << "\" y1=\"" << y(fit.elo[i] - fit.interval[i]) << "\" x2=\""
      << x(steps[i]) << "\" y2=\"" << y(fit.elo[i] + fit.interval[i]) << "\" stroke=\"#888\"/>\n"
      << "<circle cx=\"" << x(steps[i]) << "\" cy=\"" << y(fit.elo[i])
      << "\" r=\"3\" fill=\"steelblue\"/>\n"
      << "<text x=\"" << x(steps[i]) << "\" y=\"" << height - bottom + 16
      << "\" text-anchor=\"middle\">" << std::lround(steps[i]) << "</text>\n";
  }
  s << "<path d=\"" << path << "\" fill=\"none\" stroke=\"steelblue\"/>\n"
    << "<text x=\"" << width / 2 << "\" y=\"" << height - 10 << "\" text-anchor=\"middle\">"
    << x_label << "</text>\n"
    << "<text x=\"16\" y=\"" << height / 2 << "\" transform=\"rotate(-90 16 " << height / 2
    << ")\" text-anchor=\"middle\">" << y_label << "</text>\n</svg>\n";
  return s.str();
}

}  // namespace azg::play
