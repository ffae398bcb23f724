import { LINE_FIGURE_FIELDS, type LineFigureField, LineFiguresDto } from './dto/line-figures.dto';

/** A row's figures as the one figures DTO (a missing figure reads 0). */
export function figuresOf(r: Partial<Record<LineFigureField, number | null>>): LineFiguresDto {
  const out = new LineFiguresDto();
  for (const f of LINE_FIGURE_FIELDS) out[f] = r[f] ?? 0;
  return out;
}
