import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { blockBar, histogram, pairedHistogram, reductionBins } from '../../src/cli/charts.js';

const plain = new Chalk({ level: 0 });
const colour = new Chalk({ level: 1 });

describe('blockBar', () => {
  it('fills whole cells, then the nearest eighth, and pads to the width', () => {
    expect(blockBar(1, 4)).toBe('████');
    expect(blockBar(0.5, 4)).toBe('██  ');
    expect(blockBar(0.5 + 1 / 32, 4)).toBe('██▏ ');
    expect(blockBar(3 / 32, 4)).toBe('▍   ');
    expect(blockBar(0, 3)).toBe('   ');
  });

  it('never draws outside its width, whatever the fraction', () => {
    expect(blockBar(7, 5)).toBe('█████');
    expect(blockBar(-1, 5)).toBe('     ');
    expect(blockBar(0.5, 0)).toBe('');
  });
});

describe('reductionBins', () => {
  it('counts reductions in ten bins of ten points, the last one closed', () => {
    const bins = reductionBins([0, 0.05, 0.1, 0.349, 0.35, 0.999, 1]);
    expect(bins.map((b) => b.label)).toEqual(['0-10%', '10-20%', '20-30%', '30-40%', '40-50%', '50-60%', '60-70%', '70-80%', '80-90%', '90-100%']);
    expect(bins.map((b) => b.count)).toEqual([2, 1, 0, 2, 0, 0, 0, 0, 0, 2]);
  });
});

describe('histogram', () => {
  const bins = [
    { label: '0-10%', count: 8 },
    { label: '10-20%', count: 2 },
    { label: '20-30%', count: 0 },
  ];

  it('draws the largest bin across the width and the others to scale, counts aligned', () => {
    const text = histogram('Reduction', bins, { width: 30, ink: plain });
    expect(text.split('\n')).toEqual(['Reduction', ' 0-10% ████████████████████ 8', '10-20% █████                2', '20-30%                      0']);
    for (const row of text.split('\n').slice(1)) expect(row.length).toBe(29);
  });

  it('colours the bars only when the stream takes colour', () => {
    expect(histogram('R', bins, { width: 30, ink: plain })).not.toContain('\u001b[');
    expect(histogram('R', bins, { width: 30, ink: colour })).toContain('\u001b[36m');
  });

  it('draws nothing but empty rows when every bin is empty', () => {
    const text = histogram('R', [{ label: 'a', count: 0 }], { width: 12, ink: plain });
    expect(text.split('\n')[1]).toBe(`a ${' '.repeat(7)} 0`);
  });
});

describe('pairedHistogram', () => {
  it('draws two distributions side by side on one scale, with their names above', () => {
    const text = pairedHistogram(
      'Break-even',
      ['warm', 'cold'],
      [
        { label: '<=5', first: 0, second: 4 },
        { label: 'never', first: 2, second: 1 },
      ],
      { width: 34, ink: plain },
    );
    expect(text.split('\n')).toEqual(['Break-even', '      warm          cold', '  <=5            0  ██████████ 4', 'never █████      2  ██▌        1']);
  });
});
