package report

import "html/template"

// LineChart is the run report's line chart for other pages in its style
// (mlperf-go bench's report.html): an inline SVG with axes, grid, a
// marker per point and a legend. name becomes its data-chart attribute.
func LineChart(name, xLabel, yLabel string, series []Series) template.HTML {
	return lineChart(name, xLabel, yLabel, series)
}

// Stylesheet is the run report's stylesheet, for pages that match it.
func Stylesheet() template.CSS { return template.CSS(style) }

// Palette are the colours the report gives its series, in order.
var Palette = []string{"#1f5fa8", "#c0392b", "#0a7d4f", "#9a6700", "#7b3fa0", "#1d8a99"}
