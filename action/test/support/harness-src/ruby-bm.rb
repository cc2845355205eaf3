# Ruby's standard `benchmark` library, run by test/adapters/ruby-benchmark.test.ts:
# Benchmark.bm, Benchmark.bmbm (with its Rehearsal) and Benchmark.benchmark with
# the `>total:`/`>avg:` summary rows. Sleeping blocks give known wall-clock times
# (real ≥ the sleep, user and system near 0); the sum is CPU-bound (user ≈ real).
# `ruby ruby-bm.rb raise` makes the last block raise, as a failing benchmark does.
require 'benchmark'

Benchmark.bm(12) do |x|
  x.report('sleep 20ms:') { sleep 0.02 }
  x.report('sum 200k') { (1..200_000).sum { |i| i * 2 } }
end

2.times do
  Benchmark.bmbm do |x|
    x.report('sleep 5ms') { sleep 0.005 }
    x.report('sort 20k') { Array.new(20_000) { |i| (i * 7919) % 20_011 }.sort }
  end
end

Benchmark.benchmark(Benchmark::CAPTION, 7, Benchmark::FORMAT, '>total:', '>avg:') do |x|
  a = x.report('for:') { for i in 1..10_000; i.to_s; end }
  b = x.report('times:') do
    raise 'boom' if ARGV.include?('raise')
    10_000.times { |i| i.to_s }
  end
  [a + b, (a + b) / 2]
end
