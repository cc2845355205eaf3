package example.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/** Sample-time and single-shot modes: the two modes whose raw data JMH writes differently. */
public class ParseBench {
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int parseSample() {
        return Integer.parseInt("123456") + Long.toString(System.nanoTime()).length();
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int parseSingleShot() {
        int s = 0;
        for (int i = 0; i < 1000; i++) s += Integer.parseInt(Integer.toString(i));
        return s;
    }
}
