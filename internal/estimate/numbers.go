package estimate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// CeilSignificant rounds x up to digits significant figures: 8,333.3 → 8,400
// and 72.9 → 73 for two. A planning target is a round figure, and rounding
// up keeps the margin. Float noise below one part in 10⁹ is ignored, so an
// exact 70 stays 70.
func CeilSignificant(x float64, digits int) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	scale := math.Pow(10, float64(digits)-math.Floor(math.Log10(x))-1)
	scaled := x * scale
	if r := math.Round(scaled); math.Abs(scaled-r) <= 1e-9*scaled {
		return r / scale
	}
	return math.Ceil(scaled) / scale
}

// Price is what one instance or node costs per period.
type Price struct {
	Amount   float64       // per Per, in Currency
	Per      time.Duration // the period of Amount: an hour or a day
	Currency string        // e.g. "USD"
}

// PerDay returns the price of 24 hours.
func (p Price) PerDay() float64 {
	if p.Per <= 0 {
		return 0
	}
	return p.Amount * float64(24*time.Hour) / float64(p.Per)
}

// DayFormula writes the price and the step to a day, e.g. "9.529 USD/h ×
// 24 h", so that a cost line shows every step of its arithmetic.
func (p Price) DayFormula() string {
	if p.Per == time.Hour {
		return p.String() + " × 24 h"
	}
	return p.String()
}

// String writes the price as it was given, e.g. "9.529 USD/h".
func (p Price) String() string {
	per := "day"
	if p.Per == time.Hour {
		per = "h"
	}
	return strings.TrimSpace(units.Exact(p.Amount)+" "+p.Currency) + "/" + per
}

// ParsePrice reads a price such as "9.529/h", "228.70 USD/day" or "0.58/hour".
// The period is required: prices are quoted per hour by clouds and per day
// by budgets, and confusing the two is a 24× error.
func ParsePrice(s string) (Price, error) {
	amount, period, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Price{}, fmt.Errorf("price %q has no period: write it per hour or per day, e.g. 9.53/h or 228.70 USD/day", s)
	}
	var p Price
	switch strings.ToLower(strings.TrimSpace(period)) {
	case "h", "hr", "hour":
		p.Per = time.Hour
	case "d", "day":
		p.Per = 24 * time.Hour
	default:
		return Price{}, fmt.Errorf("price %q: period %q is not h or day", s, period)
	}
	fields := strings.Fields(amount)
	if len(fields) == 0 || len(fields) > 2 {
		return Price{}, fmt.Errorf("price %q: expected an amount and an optional currency before the /, e.g. 9.53 USD/h", s)
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return Price{}, fmt.Errorf("price %q: %q is not an amount of 0 or more", s, fields[0])
	}
	p.Amount = v
	if len(fields) == 2 {
		p.Currency = fields[1]
	}
	return p, nil
}

// ParseFraction reads a share written as a percentage ("12%") or a ratio
// ("0.12") and returns the ratio.
func ParseFraction(s string) (float64, error) {
	t := strings.TrimSpace(s)
	percent := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a share: write a percentage like 12%% or a ratio like 0.12", s)
	}
	if percent {
		v /= 100
	}
	if v < 0 || v > 1 {
		return 0, fmt.Errorf("%q is not a share between 0 and 100%%", s)
	}
	return v, nil
}
