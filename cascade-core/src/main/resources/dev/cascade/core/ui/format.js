// How numbers, sizes and times read on screen.

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 1234567 as "1,234,567"; null as an em dash. */
export function count(value) {
  return value === null || value === undefined ? '—' : integer.format(value);
}

/** A number with up to `digits` significant digits, grouped: 1234.5 as "1,235", 0.12345 as "0.123". */
export function number(value, digits = 4) {
  if (value === null || value === undefined || Number.isNaN(value)) {
    return '—';
  }
  const abs = Math.abs(value);
  if (abs >= 10 ** digits) {
    return integer.format(value);
  }
  return new Intl.NumberFormat('en-US', { maximumSignificantDigits: digits }).format(value);
}

/** A short number for chart labels: 1.23M, 45.6k, 0.123. */
export function compact(value) {
  if (value === null || value === undefined || Number.isNaN(value)) {
    return '—';
  }
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 }).format(value);
}

/** Bytes as "17.9 KiB" (powers of 1024, as the CLI's Formats.size shows them: one unit system). */
export function bytes(value) {
  if (value === null || value === undefined) {
    return '—';
  }
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let size = value;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? size : size.toFixed(size >= 100 ? 0 : 1)} ${units[unit]}`;
}

/** Seconds as "4 s", "3 min 5 s", "2 h 10 min", "3 d 4 h". */
export function duration(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) {
    return '—';
  }
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) {
    return `${s} s`;
  }
  const m = Math.floor(s / 60);
  if (m < 60) {
    return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  }
  const hours = Math.floor(m / 60);
  if (hours < 48) {
    return m % 60 ? `${hours} h ${m % 60} min` : `${hours} h`;
  }
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** How long ago, from seconds: "just now", "12 s ago", "3 min ago". */
export function ago(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) {
    return '—';
  }
  if (seconds < 1) {
    return 'just now';
  }
  const text = duration(seconds);
  // Ages in lists need one unit, not two.
  return `${text.split(' ').slice(0, 2).join(' ')} ago`;
}

/** An ISO time as the reader's local date and time. */
export function dateTime(iso) {
  if (!iso) {
    return '—';
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** "1 simulation", "6 simulations". */
export function plural(n, word, many = `${word}s`) {
  return `${count(n)} ${n === 1 ? word : many}`;
}
