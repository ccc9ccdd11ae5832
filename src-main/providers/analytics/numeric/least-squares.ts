/**
 * Ordinary least squares by Householder QR (no normal equations: the Nelson–Siegel loadings and
 * the ADF regressors can be close to collinear, and QR keeps the digits the normal equations lose).
 */

export interface LeastSquaresFit {
  /** Coefficients, one per column. */
  beta: number[];
  /** Sum of squared residuals. */
  ssr: number;
  /** Rows used. */
  n: number;
  /** Diagonal of (XᵀX)⁻¹, for standard errors: se_j = sqrt(ssr / (n − k) · d_j). Present when asked for. */
  xtxInvDiag?: number[];
}

/**
 * Fits y ≈ X·beta where X is given by its columns (each of length n). Returns null when the
 * columns are linearly dependent (a regressor that never varies, or two that move together).
 */
export function leastSquares(columns: ArrayLike<number>[], y: ArrayLike<number>, options: { inverseDiag?: boolean } = {}): LeastSquaresFit | null {
  const k = columns.length;
  const n = y.length;
  if (k === 0 || n < k) return null;
  // Column-major copy of X and a copy of y; both are overwritten by the reflections.
  const a = new Float64Array(n * k);
  for (let j = 0; j < k; j++) {
    const col = columns[j]!;
    for (let i = 0; i < n; i++) a[j * n + i] = col[i]!;
  }
  const b = Float64Array.from(y as ArrayLike<number>);
  const rdiag = new Float64Array(k);
  // A column whose remainder after the earlier reflections is ~0 against its own size is dependent.
  const colNorm = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    let ss = 0;
    for (let i = 0; i < n; i++) ss += a[j * n + i]! ** 2;
    colNorm[j] = Math.sqrt(ss);
  }
  for (let j = 0; j < k; j++) {
    let ss = 0;
    for (let i = j; i < n; i++) ss += a[j * n + i]! ** 2;
    const norm = Math.sqrt(ss);
    if (!(norm > 1e-12 * colNorm[j]!)) return null;
    const alpha = a[j * n + j]! > 0 ? -norm : norm;
    // v = x − alpha·e1, stored in place; H = I − 2vvᵀ/(vᵀv).
    a[j * n + j] = a[j * n + j]! - alpha;
    let vv = 0;
    for (let i = j; i < n; i++) vv += a[j * n + i]! ** 2;
    for (let c = j + 1; c < k; c++) {
      let dot = 0;
      for (let i = j; i < n; i++) dot += a[j * n + i]! * a[c * n + i]!;
      const f = (2 * dot) / vv;
      for (let i = j; i < n; i++) a[c * n + i] = a[c * n + i]! - f * a[j * n + i]!;
    }
    let dot = 0;
    for (let i = j; i < n; i++) dot += a[j * n + i]! * b[i]!;
    const f = (2 * dot) / vv;
    for (let i = j; i < n; i++) b[i] = b[i]! - f * a[j * n + i]!;
    rdiag[j] = alpha;
  }
  // Back-substitute R·beta = Qᵀy (R's strict upper part sits in a above the diagonal).
  const beta = new Array<number>(k).fill(0);
  for (let j = k - 1; j >= 0; j--) {
    let s = b[j]!;
    for (let c = j + 1; c < k; c++) s -= a[c * n + j]! * beta[c]!;
    beta[j] = s / rdiag[j]!;
  }
  let ssr = 0;
  for (let i = k; i < n; i++) ssr += b[i]! ** 2;
  const fit: LeastSquaresFit = { beta, ssr, n };
  if (options.inverseDiag) {
    // (XᵀX)⁻¹ = R⁻¹R⁻ᵀ, so its diagonal is the squared row norms of R⁻¹.
    const rinv = new Float64Array(k * k); // row-major, upper triangular
    for (let j = k - 1; j >= 0; j--) {
      rinv[j * k + j] = 1 / rdiag[j]!;
      for (let c = j + 1; c < k; c++) {
        let s = 0;
        for (let m = j + 1; m <= c; m++) s += a[m * n + j]! * rinv[m * k + c]!;
        rinv[j * k + c] = -s / rdiag[j]!;
      }
    }
    fit.xtxInvDiag = Array.from({ length: k }, (_, j) => {
      let s = 0;
      for (let c = j; c < k; c++) s += rinv[j * k + c]! ** 2;
      return s;
    });
  }
  return fit;
}
