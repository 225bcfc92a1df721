//! Setting `--check` up: the profile, the reference the models read, and
//! where the profile finds the running program.

use std::path::Path;

use dos::Session;
use emu::SegReg;
use models::Placement;

use super::RunArgs;
use crate::check::{Checker, ProfileSource, Setup};
use crate::error::Error;
use crate::session::{self, Loaded};

/// The checker of `--check` for the program `image` (named `name`) just
/// loaded in `s` with drive C: at `mount`, its hooks set; `None` without
/// `--check`.
pub fn checker(
    args: &RunArgs,
    s: &mut Session,
    name: &str,
    image: &[u8],
    mount: &Path,
) -> Result<Option<Checker>, Error> {
    let (true, Some(profile_name)) = (args.check, &args.profile) else {
        return Ok(None);
    };
    let profile = session::profile(profile_name)?;
    let profile_source = if profile_name.ends_with(".toml") {
        let text = std::fs::read_to_string(profile_name)
            .map_err(|e| Error::file(Path::new(profile_name), e))?;
        ProfileSource::Toml(text)
    } else {
        ProfileSource::Builtin(profile_name.clone())
    };
    let config = s.m.config().clone();
    let reference_image = match (&args.reference, session::builtin(&profile)) {
        (Some(p), _) => std::fs::read(p).map_err(|e| Error::file(p, e))?,
        (None, Some(b)) => b.to_vec(),
        (None, None) => image.to_vec(),
    };
    let reference = Loaded::start(&reference_image, "the reference", None, &config, b"")?;
    let ref_at = reference.place(&profile, "the reference")?;
    // The profile finds the program in a fresh load of it; the run's own
    // load (its PSP, environment) may sit elsewhere, so the segments move
    // with its load segment and stack.
    let probe = Loaded::start(image, name, None, &config, b"")?;
    let found = probe.place(&profile, name)?;
    let load_seg = s.dos.current_psp().wrapping_add(0x10);
    let ss = s.m.cpu.regs.sreg(SegReg::SS);
    let at = Placement {
        code_seg: load_seg.wrapping_add(found.code_seg.wrapping_sub(probe.load_seg)),
        data_seg: ss.wrapping_add(found.data_seg.wrapping_sub(probe.entry_ss)),
    };
    let setup = Setup {
        profile,
        profile_source,
        reference_image,
        reference,
        ref_at,
        at,
        program: name.to_string(),
        mount: mount.to_path_buf(),
    };
    let mut c = Checker::new(setup, args.checkpoint_every, args.bundle_out.clone());
    c.install(&mut s.m, false)?;
    c.read_step(&s.m);
    Ok(Some(c))
}
