//! A tiny well-formedness check of SVG text for tests: one root `<svg>` element, every
//! tag closed in order, attributes quoted, no stray `<` or `&` in text.

/// `Ok` when `svg` is a well-formed document whose root element is `svg`.
pub(crate) fn check_well_formed(svg: &str) -> Result<(), String> {
    let body = svg.trim_start();
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => &rest[rest.find("?>").ok_or("unclosed XML declaration")? + 2..],
        None => body,
    }
    .trim_start();
    if !body.starts_with("<svg") {
        return Err("the document does not start with <svg".into());
    }
    let mut stack: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut rest = body;
    while let Some(lt) = rest.find('<') {
        check_text(&rest[..lt])?;
        if stack.is_empty() && !rest[..lt].trim().is_empty() {
            return Err(format!("text outside the root element: {:?}", &rest[..lt]));
        }
        rest = &rest[lt..];
        if let Some(r) = rest.strip_prefix("<!--") {
            rest = &r[r.find("-->").ok_or("unclosed comment")? + 3..];
            continue;
        }
        let gt = tag_end(rest).ok_or_else(|| format!("unclosed tag at {:?}", head(rest)))?;
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let name = &tag[..name_end];
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == ':')
        {
            return Err(format!("bad tag name {name:?}"));
        }
        check_attributes(&tag[name_end..])?;
        if stack.is_empty() {
            roots += 1;
        }
        if !self_closing {
            stack.push(name);
        }
    }
    check_text(rest)?;
    match (stack.last(), roots, rest.trim().is_empty()) {
        (Some(open), _, _) => Err(format!("<{open}> is never closed")),
        (None, 1, true) => Ok(()),
        (None, 1, false) => Err(format!("text after the root element: {:?}", head(rest))),
        (None, n, _) => Err(format!("{n} root elements")),
    }
}

/// Index of the `>` ending the tag at the start of `s`, skipping quoted values.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(i),
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

/// `name="value"` pairs separated by whitespace.
fn check_attributes(mut s: &str) -> Result<(), String> {
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return Ok(());
        }
        let eq = s
            .find('=')
            .ok_or_else(|| format!("attribute without value: {:?}", head(s)))?;
        let name = s[..eq].trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("bad attribute name {name:?}"));
        }
        let v = s[eq + 1..].trim_start();
        let q = v.chars().next().filter(|c| *c == '"' || *c == '\'');
        let q = q.ok_or_else(|| format!("unquoted attribute {name}"))?;
        let close = v[1..]
            .find(q)
            .ok_or_else(|| format!("unclosed attribute {name}"))?;
        check_text(&v[1..1 + close])?;
        s = &v[close + 2..];
    }
}

/// Character data: no raw `<`, and every `&` starts an entity.
fn check_text(s: &str) -> Result<(), String> {
    if s.contains('<') {
        return Err(format!("raw < in {:?}", head(s)));
    }
    for (i, _) in s.match_indices('&') {
        let entity = &s[i..];
        let end = entity
            .find(';')
            .ok_or_else(|| format!("bad entity in {:?}", head(entity)))?;
        let name = &entity[1..end];
        let ok = matches!(name, "amp" | "lt" | "gt" | "quot" | "apos")
            || name.strip_prefix('#').is_some_and(|n| !n.is_empty());
        if !ok {
            return Err(format!("unknown entity &{name};"));
        }
    }
    Ok(())
}

fn head(s: &str) -> &str {
    &s[..s.char_indices().nth(40).map_or(s.len(), |(i, _)| i)]
}

/// True when some element's text content, trimmed, is exactly `text`.
pub(crate) fn has_text(svg: &str, text: &str) -> bool {
    svg.split('>')
        .filter_map(|chunk| chunk.split_once('<').map(|(t, _)| t))
        .any(|t| t.trim() == text)
}

/// Number of occurrences of `needle` (for counting elements such as `<circle`).
pub(crate) fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_text_content() {
        let svg = "<svg><text x=\"1\">\nN\n</text><text>a b</text></svg>";
        assert!(has_text(svg, "N") && has_text(svg, "a b"));
        assert!(!has_text(svg, "a") && !has_text(svg, "svg"));
    }

    #[test]
    fn accepts_well_formed_and_rejects_broken_documents() {
        assert!(check_well_formed(
            "<svg a=\"1\"><g><circle r='2'/></g><text>a &amp; b</text></svg>"
        )
        .is_ok());
        assert!(check_well_formed("<?xml version=\"1.0\"?>\n<svg></svg>\n").is_ok());
        for bad in [
            "<g></g>",
            "<svg><g></svg>",
            "<svg></g>",
            "<svg><text>a < b</text></svg>",
            "<svg><text>a & b</text></svg>",
            "<svg a=1></svg>",
            "<svg a=\"1></svg>",
            "<svg></svg><svg></svg>",
            "<svg>",
        ] {
            assert!(check_well_formed(bad).is_err(), "{bad}");
        }
    }
}
