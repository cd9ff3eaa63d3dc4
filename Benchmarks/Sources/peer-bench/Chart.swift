import Foundation
import ScheduleBenchWorkloads

/// One line of a chart panel: an implementation's nanoseconds per action at each size.
struct ChartSeries {
  let label: String
  var points: [(size: Int, nanoseconds: Double)]
}

/// One panel: a comparison, with this package's line and each rival's.
struct ChartPanel {
  let title: String
  let subtitle: String
  var series: [ChartSeries]
}

/// The panels of a run's results: per comparison, this package first, then each rival that was
/// measured at least once (skipped sizes leave a gap, not a point).
func chartPanels(rows: [Row], comparisons: [Comparison]) -> [ChartPanel] {
  comparisons.compactMap { comparison in
    let rows = rows.filter { $0.comparison == comparison.name }
    guard !rows.isEmpty else { return nil }
    var ours = ChartSeries(label: "swift-schedulers", points: [])
    var rivals: [ChartSeries] = []
    for row in rows {
      if !ours.points.contains(where: { $0.size == row.size }) {
        ours.points.append((row.size, row.ours.median))
      }
      guard let label = row.rival, let theirs = row.theirs else { continue }
      if let index = rivals.firstIndex(where: { $0.label == label }) {
        rivals[index].points.append((row.size, theirs.median))
      } else {
        rivals.append(ChartSeries(label: label, points: [(row.size, theirs.median)]))
      }
    }
    return ChartPanel(
      title: comparison.name, subtitle: comparison.summary, series: [ours] + rivals)
  }
}

/// An SVG of the panels: nanoseconds per action against n, both axes logarithmic, one panel
/// per workload, two panels a row. Plain SVG 1.1, no scripts, no fonts beyond the system's.
func svgChart(_ panels: [ChartPanel], stories: [StoryResult] = [], caption: String) -> String {
  let panelWidth = 470.0
  let panelHeight = 330.0
  let columns = 2
  let margin = (left: 70.0, right: 20.0, top: 52.0, bottom: 92.0)
  let rows = (panels.count + columns - 1) / columns
  let width = Double(columns) * panelWidth
  let (storiesSVG, storiesHeight) = storyBand(stories, width: width)
  let height = storiesHeight + Double(rows) * panelHeight + 40
  let colors = ["#1f6feb", "#d1242f", "#8250df", "#1a7f37", "#bc4c00", "#6e7781"]

  func text(_ value: String) -> String {
    value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
  func number(_ value: Double) -> String { String(format: "%.1f", value) }
  func sizeLabel(_ n: Double) -> String {
    switch n {
    case 1e6...: "\(Int(n / 1e6))M"
    case 1e3...: "\(Int(n / 1e3))k"
    default: "\(Int(n))"
    }
  }
  func timeLabel(_ ns: Double) -> String {
    switch ns {
    case 1e9...: "\(Int(ns / 1e9)) s"
    case 1e6...: "\(Int(ns / 1e6)) ms"
    case 1e3...: "\(Int(ns / 1e3)) µs"
    default: "\(Int(ns)) ns"
    }
  }

  var svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
    viewBox="0 0 \(Int(width)) \(Int(height))" font-family="-apple-system, Helvetica, Arial, sans-serif" \
    font-size="11">
    <rect width="100%" height="100%" fill="#ffffff"/>
    \(storiesSVG)
    """
  for (index, panel) in panels.enumerated() {
    let originX = Double(index % columns) * panelWidth
    let originY = storiesHeight + Double(index / columns) * panelHeight
    let plot = (
      x: originX + margin.left, y: originY + margin.top,
      width: panelWidth - margin.left - margin.right,
      height: panelHeight - margin.top - margin.bottom
    )
    let points = panel.series.flatMap(\.points)
    guard !points.isEmpty else { continue }
    // Axes span whole decades around the data.
    let sizes = points.map { log10(Double($0.size)) }
    let times = points.map { log10(max($0.nanoseconds, 0.1)) }
    let xRange = (floor(sizes.min()!), max(ceil(sizes.max()!), floor(sizes.min()!) + 1))
    let yRange = (floor(times.min()!), max(ceil(times.max()!), floor(times.min()!) + 1))
    func x(_ size: Int) -> Double {
      plot.x + (log10(Double(size)) - xRange.0) / (xRange.1 - xRange.0) * plot.width
    }
    func y(_ ns: Double) -> Double {
      plot.y + plot.height - (log10(max(ns, 0.1)) - yRange.0) / (yRange.1 - yRange.0)
        * plot.height
    }
    svg += """
      <text x="\(number(originX + margin.left))" y="\(number(originY + 20))" font-size="14" \
      font-weight="600">\(text(panel.title))</text>
      <text x="\(number(originX + margin.left))" y="\(number(originY + 36))" fill="#57606a">\
      \(text(panel.subtitle))</text>
      <rect x="\(number(plot.x))" y="\(number(plot.y))" width="\(number(plot.width))" \
      height="\(number(plot.height))" fill="none" stroke="#d0d7de"/>

      """
    for decade in stride(from: xRange.0, through: xRange.1, by: 1) {
      let position = plot.x + (decade - xRange.0) / (xRange.1 - xRange.0) * plot.width
      svg += """
        <line x1="\(number(position))" y1="\(number(plot.y))" x2="\(number(position))" \
        y2="\(number(plot.y + plot.height))" stroke="#eaeef2"/>
        <text x="\(number(position))" y="\(number(plot.y + plot.height + 14))" \
        text-anchor="middle" fill="#57606a">\(sizeLabel(pow(10, decade)))</text>

        """
    }
    for decade in stride(from: yRange.0, through: yRange.1, by: 1) {
      let position =
        plot.y + plot.height - (decade - yRange.0) / (yRange.1 - yRange.0) * plot.height
      svg += """
        <line x1="\(number(plot.x))" y1="\(number(position))" x2="\(number(plot.x + plot.width))" \
        y2="\(number(position))" stroke="#eaeef2"/>
        <text x="\(number(plot.x - 6))" y="\(number(position + 4))" text-anchor="end" \
        fill="#57606a">\(timeLabel(pow(10, decade)))</text>

        """
    }
    svg += """
      <text x="\(number(plot.x + plot.width / 2))" y="\(number(plot.y + plot.height + 28))" \
      text-anchor="middle" fill="#57606a">n (actions)</text>
      <text x="\(number(originX + 14))" y="\(number(plot.y + plot.height / 2))" \
      text-anchor="middle" fill="#57606a" transform="rotate(-90 \(number(originX + 14)) \
      \(number(plot.y + plot.height / 2)))">ns per action</text>

      """
    for (seriesIndex, series) in panel.series.enumerated() {
      let color = colors[seriesIndex % colors.count]
      let sorted = series.points.sorted { $0.size < $1.size }
      let path = sorted.map { "\(number(x($0.size))),\(number(y($0.nanoseconds)))" }
        .joined(separator: " ")
      if sorted.count > 1 {
        svg += """
          <polyline points="\(path)" fill="none" stroke="\(color)" stroke-width="2"/>

          """
      }
      for point in sorted {
        svg += """
          <circle cx="\(number(x(point.size)))" cy="\(number(y(point.nanoseconds)))" r="3" \
          fill="\(color)"><title>\(text(series.label)), n = \(point.size): \
          \(number(point.nanoseconds)) ns per action</title></circle>

          """
      }
      let legendY = plot.y + plot.height + 46 + Double(seriesIndex) * 14
      svg += """
        <line x1="\(number(plot.x))" y1="\(number(legendY - 4))" x2="\(number(plot.x + 18))" \
        y2="\(number(legendY - 4))" stroke="\(color)" stroke-width="2"/>
        <text x="\(number(plot.x + 24))" y="\(number(legendY))">\(text(series.label))</text>

        """
    }
  }
  svg += """
    <text x="10" y="\(Int(height - 14))" fill="#57606a">\(text(caption))</text>
    </svg>

    """
  return svg
}

/// The stories at the top of the chart: per story, each way of testing as two bars, the median
/// time per test idle and loaded (log scale, 10 µs to 100 ms), each labelled with its pass count.
func storyBand(_ results: [StoryResult], width: Double) -> (svg: String, height: Double) {
  guard !results.isEmpty else { return ("", 0) }
  let storyNames = results.map(\.story).reduce(into: [String]()) {
    if !$0.contains($1) { $0.append($1) }
  }
  let labelWidth = 330.0
  let barLeft = 20 + labelWidth
  let barWidth = width - barLeft - 170
  let (low, high) = (1.0, 5.0)  // log10 of µs: 10 µs to 100 ms
  let colors = (idle: "#1f6feb", loaded: "#d1242f")
  func x(_ duration: Duration) -> Double {
    let position = (log10(max(microsecondsValue(duration), 10)) - low) / (high - low)
    return barLeft + min(max(position, 0), 1) * barWidth
  }
  func escape(_ value: String) -> String {
    value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
  var svg = """
    <text x="20" y="24" font-size="14" font-weight="600">Time per test and passes: one test of \
    the same model code, run the way each package tests it</text>
    <text x="20" y="40" fill="#57606a">median wall time per test (log scale); blue idle, red \
    with both cores busy; the label is how many of the runs passed</text>

    """
  var y = 56.0
  for story in storyNames {
    svg += """
      <text x="20" y="\(Int(y + 12))" font-weight="600">\(escape(story))</text>

      """
    y += 18
    let ways = results.filter { $0.story == story }.map(\.way).reduce(into: [String]()) {
      if !$0.contains($1) { $0.append($1) }
    }
    for way in ways {
      svg += """
        <text x="30" y="\(Int(y + 14))">\(escape(way))</text>

        """
      for (load, color) in [("idle", colors.idle), ("loaded", colors.loaded)] {
        guard
          let result = results.first(where: {
            $0.story == story && $0.way == way && $0.load == load
          })
        else { continue }
        let end = x(result.median)
        svg += """
          <rect x="\(Int(barLeft))" y="\(Int(y + 2))" width="\(Int(end - barLeft))" height="9" \
          fill="\(color)"><title>\(escape(way)), \(load): median \(microseconds(result.median)) µs, \
          passed \(result.passed) of \(result.times.count)</title></rect>
          <text x="\(Int(end + 4))" y="\(Int(y + 10))" fill="#57606a">\
          \(microseconds(result.median)) µs, \(result.passed)/\(result.times.count)</text>

          """
        y += 11
      }
      y += 4
    }
    y += 8
  }
  var grid = ""
  for (exponent, label) in [
    (1.0, "10 µs"), (2, "100 µs"), (3, "1 ms"), (4, "10 ms"), (5, "100 ms"),
  ] {
    let position = barLeft + (exponent - low) / (high - low) * barWidth
    grid += """
      <line x1="\(Int(position))" y1="56" x2="\(Int(position))" y2="\(Int(y))" stroke="#eaeef2"/>
      <text x="\(Int(position))" y="\(Int(y + 12))" text-anchor="middle" fill="#57606a">\(label)</text>

      """
  }
  // The grid goes under the bars: drawn first.
  return (grid + svg, y + 30)
}
