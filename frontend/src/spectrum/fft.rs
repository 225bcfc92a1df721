//! An in-place radix-2 fast Fourier transform (decimation in time, Cooley
//! and Tukey 1965), enough for the short-time spectra of a WAV.

use std::f64::consts::PI;

/// Transforms `re` + i`im` in place into its discrete Fourier transform
/// X[k] = sum x[n] e^(-2 pi i k n / N). N = `re.len()` must be a power of
/// two and equal `im.len()`; other lengths are left untouched and false is
/// returned.
pub fn fft(re: &mut [f64], im: &mut [f64]) -> bool {
    let n = re.len();
    if n != im.len() || !n.is_power_of_two() {
        return false;
    }
    if n == 1 {
        return true;
    }
    // Bit-reversed order, so that each stage combines neighbouring runs.
    let shift = usize::BITS - n.trailing_zeros();
    for i in 0..n {
        let j = i.reverse_bits() >> shift;
        if j > i {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        let step = -2.0 * PI / len as f64;
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let (s, c) = (step * k as f64).sin_cos();
                let (a, b) = (start + k, start + k + len / 2);
                let tr = re[b] * c - im[b] * s;
                let ti = re[b] * s + im[b] * c;
                re[b] = re[a] - tr;
                im[b] = im[a] - ti;
                re[a] += tr;
                im[a] += ti;
            }
        }
        len *= 2;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transform by its definition, for comparison.
    fn dft(x: &[f64]) -> Vec<(f64, f64)> {
        let n = x.len();
        (0..n)
            .map(|k| {
                x.iter().enumerate().fold((0.0, 0.0), |(r, i), (t, v)| {
                    let a = -2.0 * PI * (k * t) as f64 / n as f64;
                    (r + v * a.cos(), i + v * a.sin())
                })
            })
            .collect()
    }

    #[test]
    fn matches_the_definition() {
        for n in [1usize, 2, 8, 64] {
            let x: Vec<f64> = (0..n).map(|i| ((i * 7 + 3) % 11) as f64 - 5.0).collect();
            let (mut re, mut im) = (x.clone(), vec![0.0; n]);
            assert!(fft(&mut re, &mut im));
            for (k, (r, i)) in dft(&x).into_iter().enumerate() {
                assert!(
                    (re[k] - r).abs() < 1e-9 && (im[k] - i).abs() < 1e-9,
                    "n {n} k {k}"
                );
            }
        }
    }

    #[test]
    fn refuses_other_lengths() {
        let (mut re, mut im) = (vec![1.0; 6], vec![0.0; 6]);
        assert!(!fft(&mut re, &mut im));
        assert_eq!(re, vec![1.0; 6]);
    }
}
