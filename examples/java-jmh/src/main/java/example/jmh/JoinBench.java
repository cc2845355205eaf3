package example.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Joining strings two ways, measured as throughput (higher is better) and as
 * average time (lower is better), so a gate must read both directions right.
 */
@State(Scope.Benchmark)
public class JoinBench {
    @Param({"10", "100"})
    public int size;

    private List<String> parts;

    @Setup
    public void setup() {
        parts = new ArrayList<>();
        for (int i = 0; i < size; i++) parts.add(Integer.toString(i));
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public String builder() {
        StringBuilder sb = new StringBuilder();
        for (String p : parts) sb.append(p).append(',');
        return sb.toString();
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public String join() {
        return String.join(",", parts);
    }
}
