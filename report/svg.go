package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
)

// Series is one line of a line chart.
type Series struct {
	Name   string
	Color  string
	Points []Point
}

// Point is an (x, y) pair of a Series.
type Point struct{ X, Y float64 }

// chart geometry, in SVG user units (the SVG scales to its container).
const (
	chartW, chartH            = 560, 250
	padL, padR, padT, padB    = 56, 12, 30, 38
	plotW, plotH              = chartW - padL - padR, chartH - padT - padB
	barChartW, barRowH, barL  = 560, 24, 56
	barPadT, barPadB, barPadR = 4, 4, 90
)

// lineChart draws series as an inline SVG line chart with axes, grid
// lines, a marker on every point and a legend. name becomes the SVG's
// data-chart attribute.
func lineChart(name, xLabel, yLabel string, series []Series) template.HTML {
	minX, maxX, maxY := math.Inf(1), math.Inf(-1), 0.0
	n := 0
	for _, s := range series {
		for _, p := range s.Points {
			minX, maxX, maxY = math.Min(minX, p.X), math.Max(maxX, p.X), math.Max(maxY, p.Y)
			n++
		}
	}
	if n == 0 {
		return template.HTML(`<p class="empty">No data.</p>`)
	}
	xTicks := niceTicks(minX, maxX, 8)
	if maxX <= minX {
		// One x (a single load point): it is the only tick, mid-plot,
		// not the left edge of a made-up range.
		xTicks = []float64{minX}
		minX, maxX = minX-1, maxX+1
	}
	yTicks := niceTicks(0, maxY, 5)
	top := yTicks[len(yTicks)-1]
	legend, legendRows := legendLayout(series)
	// Each legend row past the first pushes the plot down and the chart
	// taller.
	plotTop := padT + (legendRows-1)*legendRowH
	height := chartH + (legendRows-1)*legendRowH
	sx := func(x float64) float64 { return padL + (x-minX)/(maxX-minX)*plotW }
	sy := func(y float64) float64 { return float64(plotTop) + plotH - y/top*plotH }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" data-chart="%s" viewBox="0 0 %d %d" role="img" aria-label="%s">`, html.EscapeString(name), chartW, height, html.EscapeString(yLabel+" over "+xLabel))
	for _, t := range yTicks {
		y := sy(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`, padL, chartW-padR, y, y)
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%.1f" text-anchor="end">%s</text>`, padL-6, y+4, fmtTick(t))
	}
	for _, t := range xTicks {
		if t < minX || t > maxX {
			continue
		}
		x := sx(t)
		fmt.Fprintf(&b, `<line class="xtick" x1="%.1f" x2="%.1f" y1="%d" y2="%d"/>`, x, x, plotTop+plotH, plotTop+plotH+4)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x, plotTop+plotH+16, fmtTick(t))
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" x2="%d" y1="%d" y2="%d"/>`, padL, chartW-padR, plotTop+plotH, plotTop+plotH)
	fmt.Fprintf(&b, `<text class="label" x="%d" y="%d" text-anchor="middle">%s</text>`, padL+plotW/2, height-4, html.EscapeString(xLabel))
	fmt.Fprintf(&b, `<text class="label" transform="translate(14 %d) rotate(-90)" text-anchor="middle">%s</text>`, plotTop+plotH/2, html.EscapeString(yLabel))
	for i, s := range series {
		r := 2.5
		if len(s.Points) == 1 {
			r = 4 // a lone point is all there is to see
		}
		var pts strings.Builder
		for _, p := range s.Points {
			fmt.Fprintf(&pts, "%.1f,%.1f ", sx(p.X), sy(p.Y))
		}
		fmt.Fprintf(&b, `<g class="series" data-series="%s"><polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, html.EscapeString(s.Name), strings.TrimSpace(pts.String()), s.Color)
		// Markers only where they stay readable; the hover title gives
		// the value.
		if len(s.Points) <= 240 {
			for _, p := range s.Points {
				fmt.Fprintf(&b, `<circle class="pt" cx="%.1f" cy="%.1f" r="%g" fill="%s"><title>%s: %s at %s</title></circle>`, sx(p.X), sy(p.Y), r, s.Color, html.EscapeString(s.Name), fmtTick(p.Y), fmtTick(p.X))
			}
		}
		b.WriteString(`</g>`)
		// Legend, in rows above the plot.
		lx, ly := legend[i][0], legend[i][1]
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" rx="2" fill="%s"/><text class="legend" x="%d" y="%d">%s</text>`, lx, ly, s.Color, lx+17, ly+11, html.EscapeString(s.Name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// legendRowH is the height of a row of the line chart's legend.
const legendRowH = 16

// legendCharW is a legend character's width, generously: the legend's
// font is 11 px, and names must not run into each other or off the chart.
const legendCharW = 7

// legendLayout places each series' legend entry (its swatch's top left)
// left to right, as wide as its name, starting a new row where the next
// entry would leave the chart; it returns the places and the row count.
func legendLayout(series []Series) ([][2]int, int) {
	places := make([][2]int, len(series))
	x, row := padL, 0
	for i, s := range series {
		w := 17 + legendCharW*len([]rune(s.Name)) + 14
		if x > padL && x+w > chartW-padR {
			x, row = padL, row+1
		}
		places[i] = [2]int{x, 6 + row*legendRowH}
		x += w
	}
	return places, row + 1
}

// Bar is one bar of a bar chart.
type Bar struct {
	Label string
	Value float64
}

// barChart draws horizontal bars, labelled with their values in unit.
func barChart(name, unit string, bars []Bar, color string) template.HTML {
	return barChartLimit(name, unit, bars, color, 0, "")
}

// barChartLimit is barChart with a dashed vertical line at limit (> 0),
// labelled limitLabel: the bound the bars are judged against, so a reader
// sees at once how close to it the tail runs.
func barChartLimit(name, unit string, bars []Bar, color string, limit float64, limitLabel string) template.HTML {
	if len(bars) == 0 {
		return template.HTML(`<p class="empty">No data.</p>`)
	}
	maxV := limit
	for _, b := range bars {
		maxV = math.Max(maxV, b.Value)
	}
	if maxV <= 0 {
		maxV = 1
	}
	h := barPadT + len(bars)*barRowH + barPadB
	w := float64(barChartW - barL - barPadR)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart bars" data-chart="%s" viewBox="0 0 %d %d" role="img" aria-label="%s">`, html.EscapeString(name), barChartW, h, html.EscapeString(name))
	for i, bar := range bars {
		y := barPadT + i*barRowH
		bw := math.Max(bar.Value, 0) / maxV * w
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%d" text-anchor="end">%s</text>`, barL-8, y+16, html.EscapeString(bar.Label))
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%.1f" height="%d" fill="%s" rx="2"><title>%s: %s %s</title></rect>`, barL, y+4, bw, barRowH-8, color, html.EscapeString(bar.Label), fmtTick(bar.Value), html.EscapeString(unit))
		fmt.Fprintf(&b, `<text class="value" x="%.1f" y="%d">%s %s</text>`, float64(barL)+bw+6, y+16, fmtTick(bar.Value), html.EscapeString(unit))
	}
	if limit > 0 {
		x := float64(barL) + limit/maxV*w
		fmt.Fprintf(&b, `<line class="limit" x1="%.1f" x2="%.1f" y1="0" y2="%d" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="4 3"><title>%s</title></line>`, x, x, h, html.EscapeString(limitLabel))
		fmt.Fprintf(&b, `<text class="limit" x="%.1f" y="%d" text-anchor="end" fill="#c0392b">%s</text>`, x-3, h-4, html.EscapeString(limitLabel))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// niceTicks returns about n round tick values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if hi <= lo {
		hi = lo + 1
	}
	step := niceNum((hi - lo) / float64(n))
	start := math.Floor(lo/step) * step
	var out []float64
	for v := start; v < hi+step*0.999; v += step {
		out = append(out, math.Round(v/step)*step)
		if len(out) > 4*n {
			break
		}
	}
	return out
}

// niceNum rounds x up to 1, 2, 2.5 or 5 times a power of ten.
func niceNum(x float64) float64 {
	if x <= 0 {
		return 1
	}
	exp := math.Floor(math.Log10(x))
	f := x / math.Pow(10, exp)
	var nf float64
	switch {
	case f <= 1:
		nf = 1
	case f <= 2:
		nf = 2
	case f <= 2.5:
		nf = 2.5
	case f <= 5:
		nf = 5
	default:
		nf = 10
	}
	return nf * math.Pow(10, exp)
}

// fmtTick formats a number compactly: 1200 → "1.2k", 0.25 → "0.25".
func fmtTick(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return trimZeros(fmt.Sprintf("%.2f", v/1e9)) + "G"
	case a >= 1e6:
		return trimZeros(fmt.Sprintf("%.2f", v/1e6)) + "M"
	case a >= 1e4:
		return trimZeros(fmt.Sprintf("%.1f", v/1e3)) + "k"
	case a >= 100 || a == 0:
		return fmt.Sprintf("%.0f", v)
	case a >= 1:
		return trimZeros(fmt.Sprintf("%.2f", v))
	}
	return trimZeros(fmt.Sprintf("%.3g", v))
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
