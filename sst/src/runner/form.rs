//! Which form (status and flags mask from `metadata.json`) each test of a
//! file belongs to.

use crate::metadata::{FileForm, FormInfo, Metadata};

/// Prefix bytes skipped when looking for a test's opcode and ModR/M byte.
fn is_prefix(b: u8) -> bool {
    matches!(b, 0x26 | 0x2E | 0x36 | 0x3E | 0xF0 | 0xF1 | 0xF2 | 0xF3)
}

/// How each test of a file finds its form.
pub(super) enum FormResolver {
    /// One form for the whole file.
    Fixed(FormInfo),
    /// A group opcode file without a reg in its name: the ModR/M reg field of
    /// each test picks the form.
    ByModrm {
        opcode: Vec<u8>,
        regs: [FormInfo; 8],
        fallback: FormInfo,
    },
}

impl FormResolver {
    /// The resolver of a file: its form from the file name looked up in
    /// the directory's metadata (`file` names it in warnings).
    pub(super) fn new(meta: Option<&Metadata>, form: Option<FileForm>, file: &str) -> FormResolver {
        let (Some(meta), Some(form)) = (meta, form) else {
            return FormResolver::Fixed(FormInfo::default());
        };
        if form.reg.is_none() && meta.has_reg_forms(form.opcode) {
            let fallback = meta.form(form.opcode, None).unwrap_or_default();
            let mut regs = [fallback; 8];
            for (r, slot) in regs.iter_mut().enumerate() {
                *slot = meta.form(form.opcode, Some(r as u8)).unwrap_or(fallback);
            }
            return FormResolver::ByModrm {
                opcode: form.opcode_bytes(),
                regs,
                fallback,
            };
        }
        match meta.form(form.opcode, form.reg) {
            Some(info) => FormResolver::Fixed(info),
            None => {
                log::warn!("{file}: form {form} is not in metadata.json; counted as normal");
                FormResolver::Fixed(FormInfo::default())
            }
        }
    }

    /// The form of the test whose instruction is `bytes`.
    pub(super) fn resolve(&self, bytes: &[u8]) -> FormInfo {
        match self {
            FormResolver::Fixed(i) => *i,
            FormResolver::ByModrm {
                opcode,
                regs,
                fallback,
            } => {
                let Some(i) = bytes.iter().position(|&b| !is_prefix(b)) else {
                    return *fallback;
                };
                let rest = &bytes[i..];
                match rest.get(opcode.len()) {
                    Some(&modrm) if rest.starts_with(opcode) => regs[(modrm >> 3 & 7) as usize],
                    _ => *fallback,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::{parse_file_name, FormStatus};

    #[test]
    fn forms_by_modrm() {
        let meta = Metadata::parse(
            r#"{"opcodes": {"8F": {"reg": {"0": {"status": "normal"},
                "1": {"status": "undefined"}}}}}"#,
            "m",
        )
        .unwrap();
        let form = parse_file_name("8F.MOO.gz");
        let res = FormResolver::new(Some(&meta), form, "8F.MOO.gz");
        assert_eq!(res.resolve(&[0x8F, 0x06]).status, FormStatus::Normal);
        assert_eq!(res.resolve(&[0x8F, 0x0E]).status, FormStatus::Undefined);
        assert_eq!(
            res.resolve(&[0x2E, 0xF3, 0x8F, 0xC8]).status,
            FormStatus::Undefined
        );
        // Regs without an entry, short or foreign bytes fall back to normal.
        assert_eq!(res.resolve(&[0x8F, 0x10]).status, FormStatus::Normal);
        assert_eq!(res.resolve(&[0x8F]).status, FormStatus::Normal);
        assert_eq!(res.resolve(&[0x90]).status, FormStatus::Normal);
    }
}
