package gobench

import (
	"fmt"
	"testing"
)

func TestSum(t *testing.T) {
	if got := Sum(Join(100)); got != 4950 {
		t.Fatalf("Sum(Join(100)) = %d, want 4950", got)
	}
}

// BenchmarkJoin allocates, so -benchmem shows B/op and allocs/op.
func BenchmarkJoin(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = Join(50)
	}
}

// BenchmarkSum has sub-benchmarks with a byte rate (MB/s) and a custom metric.
func BenchmarkSum(b *testing.B) {
	for _, n := range []int{10, 1000} {
		in := Join(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for i := 0; i < b.N; i++ {
				_ = Sum(in)
			}
			b.ReportMetric(float64(n), "items/op")
		})
	}
}
