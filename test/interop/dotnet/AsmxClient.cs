// ASMX-era .NET client of the conformance run: calls, by reflection, the proxies that Mono's wsdl tool
// generated from the sandbox's WSDL (run.sh: wsdl -protocol:SOAP|SOAP12|HttpGet|HttpPost), and prints
// one JSON line per call (see test/interop/conformance.mjs). Usage: asmx.exe <plan.json> <binding>.
using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Reflection;
using System.Text;
using System.Web.Script.Serialization;
using System.Web.Services.Protocols;

public static class AsmxClient {
	static readonly Dictionary<string, string> Protocols = new Dictionary<string, string> {
		{ "soap11", "SOAP" }, { "soap12", "SOAP12" }, { "httpget", "HttpGet" }, { "httppost", "HttpPost" },
	};

	public static int Main(string[] args) {
		var json = new JavaScriptSerializer { MaxJsonLength = int.MaxValue };
		var plan = (Dictionary<string, object>) json.DeserializeObject(File.ReadAllText(args[0]));
		var protocol = Protocols[args[1]];
		var entries = ((object[]) plan["calls"]).Cast<Dictionary<string, object>>().ToList();
		var mistake = new Dictionary<string, object>((Dictionary<string, object>) plan["mistake"]);
		mistake["label"] = "mistake";
		entries.Add(mistake);
		foreach (var entry in entries) {
			var label = entry.ContainsKey("label") ? (string) entry["label"] : (string) entry["op"];
			var line = new Dictionary<string, object> { { "op", label } };
			try {
				line["result"] = Plain(Call(protocol, entry, (Dictionary<string, object>) plan["endpoint"]));
				line["ok"] = true;
			} catch (Exception e) {
				line["ok"] = false;
				line["error"] = Describe(e is TargetInvocationException && e.InnerException != null ? e.InnerException : e);
			}
			Console.WriteLine(json.Serialize(line));
		}
		return 0;
	}

	static object Call(string protocol, Dictionary<string, object> entry, Dictionary<string, object> endpoints) {
		var service = (string) entry["service"] == "posting" ? "Posting" : "Administration";
		var type = typeof(AsmxClient).Assembly.GetType(service[0] + protocol + "." + service, true);
		var proxy = Activator.CreateInstance(type);
		// The proxies were generated from another sandbox's WSDL (another port).
		type.GetProperty("Url").SetValue(proxy, endpoints[(string) entry["service"]]);
		var method = type.GetMethod((string) entry["op"]);
		var given = (Dictionary<string, object>) entry["params"];
		var values = method.GetParameters().Select(p => Convert(given.ContainsKey(p.Name) ? given[p.Name] : null, p.ParameterType)).ToArray();
		return method.Invoke(proxy, values);
	}

	static object Convert(object value, Type type) {
		if (type == typeof(string)) return value == null ? null : System.Convert.ToString(value).Replace("True", "true").Replace("False", "false");
		// An absent list is sent empty: Mono's HTTP GET/POST proxies throw on a null array.
		if (type == typeof(string[])) return value == null ? new string[0] : ((object[]) value).Select(v => (string) v).ToArray();
		if (value == null) return Activator.CreateInstance(type);
		return System.Convert.ChangeType(value, type);
	}

	/** The decoded result as JSON-friendly values: public fields and properties of the generated classes. */
	static object Plain(object value) {
		if (value == null || value is string || value is bool || value.GetType().IsPrimitive) return value;
		if (value is decimal || value is DateTime) return System.Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture);
		if (value is byte[]) return System.Convert.ToBase64String((byte[]) value);
		if (value.GetType().IsEnum) return value.ToString();
		if (value is IEnumerable) return ((IEnumerable) value).Cast<object>().Select(Plain).ToList();
		var record = new Dictionary<string, object>();
		foreach (var field in value.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance)) record[field.Name] = Plain(field.GetValue(value));
		foreach (var property in value.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance)) {
			if (property.GetIndexParameters().Length == 0) record[property.Name] = Plain(property.GetValue(value));
		}
		return record;
	}

	static string Describe(Exception e) {
		var soap = e as SoapException;
		if (soap != null) {
			var sub = soap.SubCode == null ? "" : "/" + soap.SubCode.Code.Name;
			return e.GetType().FullName + " " + soap.Code.Name + sub + ": " + soap.Message;
		}
		var web = e as WebException;
		if (web != null && web.Response != null) {
			var response = (HttpWebResponse) web.Response;
			using (var reader = new StreamReader(response.GetResponseStream(), Encoding.UTF8)) {
				var body = reader.ReadToEnd().Trim();
				return e.GetType().FullName + " HTTP " + (int) response.StatusCode + ": " + (body.Length > 0 ? body : e.Message);
			}
		}
		return e.GetType().FullName + ": " + e.Message;
	}
}
