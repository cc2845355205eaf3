# Ruby benchmark-ips, run by test/adapters/benchmark-ips.test.ts. A short run
# (0.3 s per benchmark) with a sleeping block of known rate (at most 100 i/s),
# a label longer than 20 characters (printed on its own line), `compare!`, and
# the JSON report written to the path given as the first argument.
# `ruby ruby-ips.rb out.json raise` makes the last block raise, as a failing benchmark does.
require 'benchmark/ips'

Benchmark.ips do |x|
  x.config(time: 0.3, warmup: 0.1)
  x.report('addition') { 1 + 2 }
  x.report('sleep 10ms') { sleep 0.01 }
  x.report('a label longer than twenty characters') { 'a' * 10 }
  x.report('raises') { raise 'boom' } if ARGV.include?('raise')
  x.compare!
  x.json!(ARGV[0]) if ARGV[0] && ARGV[0] != 'raise'
end
