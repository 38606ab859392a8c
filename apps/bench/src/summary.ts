// The one table of `pnpm bench`: every headline figure the benchmarks of this run saved, each
// next to its baseline from the same run and the ratio between them. `--markdown` prints it as a
// Markdown table for docs/performance.md.
import { type Figure, loadFigures } from './results'

const fmt = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-US') : 'n/a')

function ratio(f: Figure): string {
  if (f.baselineValue === undefined || !Number.isFinite(f.value) || f.baselineValue === 0) return ''
  return `${(f.value / f.baselineValue).toFixed(2)}×`
}

const rows = loadFigures().flatMap(({ figures }) =>
  figures.map((f) => ({
    measured: f.what,
    value: `${fmt(f.value)} ${f.unit}`,
    baseline: f.baseline ? `${f.baseline}: ${fmt(f.baselineValue ?? Number.NaN)}` : '',
    ratio: ratio(f),
    note: f.note ?? '',
  })),
)

if (rows.length === 0) {
  console.log('no benchmark figures saved yet: run `pnpm bench`')
} else if (process.argv.includes('--markdown')) {
  const head = ['measured', 'value', 'baseline (same run)', 'ratio', 'note']
  console.log(`| ${head.join(' | ')} |`)
  console.log(`| ${head.map(() => '---').join(' | ')} |`)
  for (const r of rows) {
    console.log(`| ${[r.measured, r.value, r.baseline, r.ratio, r.note].join(' | ')} |`)
  }
} else {
  console.log('\npnpm bench — every figure next to its baseline measured in the same run\n')
  console.table(rows)
}
