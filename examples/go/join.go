// Package gobench is perf-gate's Go example: joining and parsing small strings.
package gobench

import (
	"strconv"
	"strings"
)

// Join writes 0..n-1 separated by commas.
func Join(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(i))
	}
	return sb.String()
}

// Sum adds the comma-separated integers of s, skipping anything else.
func Sum(s string) int {
	total := 0
	for _, f := range strings.Split(s, ",") {
		if v, err := strconv.Atoi(f); err == nil {
			total += v
		}
	}
	return total
}
