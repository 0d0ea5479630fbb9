// A WCF (System.ServiceModel) client of GetCurrency, used to check that the sandbox's answers and faults
// are readable by WCF: part of the conformance run (test/interop/run.sh, npm run conformance), or alone
// with test/interop/wcf/run.sh. Needs Debian's mono-devel; not part of npm test.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Web.Script.Serialization;
using System.Xml.Serialization;

[XmlType(Namespace = "http://mp.example/")]
public class GetValue {
	public string CultureID; public string Description; public int FieldID; public int OrganisationID;
	[XmlElement(IsNullable = true)] public int? SortOrder; public string Value;
}

[ServiceContract(Namespace = "http://mp.example/")]
[XmlSerializerFormat]
public interface IPosting {
	[OperationContract(Action = "http://mp.example/GetCurrency")]
	[return: XmlArrayItem("GetValue", IsNullable = true)]
	GetValue[] GetCurrency(string sCultureID, string sAPIKey);
}

public static class Program {
	// Usage: client.exe <plan.json> soap11|soap12 (the conformance run), or <endpoint> <API key> soap11|soap12.
	public static int Main(string[] args) {
		var soap12 = args[args.Length - 1] == "soap12";
		if (!args[0].EndsWith(".json")) {
			Console.WriteLine(Call(args[0], args[1], soap12));
			return 0;
		}
		var json = new JavaScriptSerializer();
		var plan = (Dictionary<string, object>) json.DeserializeObject(File.ReadAllText(args[0]));
		var endpoint = (string) ((Dictionary<string, object>) plan["endpoint"])["posting"];
		var call = ((object[]) plan["calls"]).Cast<Dictionary<string, object>>().First(c => (string) c["op"] == "GetCurrency");
		var key = (string) ((Dictionary<string, object>) call["params"])["sAPIKey"];
		var wrongKey = (string) ((Dictionary<string, object>) ((Dictionary<string, object>) plan["mistake"])["params"])["sAPIKey"];
		Console.WriteLine(json.Serialize(Line("GetCurrency", endpoint, key, soap12)));
		Console.WriteLine(json.Serialize(Line("mistake", endpoint, wrongKey, soap12)));
		return 0;
	}

	static Dictionary<string, object> Line(string label, string endpoint, string key, bool soap12) {
		try {
			var rows = Channel(endpoint, soap12).GetCurrency("en-GB", key);
			var result = rows.Select(r => new Dictionary<string, object> { { "Value", r.Value }, { "FieldID", r.FieldID } }).ToList();
			return new Dictionary<string, object> { { "op", label }, { "ok", true }, { "result", result } };
		} catch (Exception e) {
			return new Dictionary<string, object> { { "op", label }, { "ok", false }, { "error", Describe(e) } };
		}
	}

	static IPosting Channel(string endpoint, bool soap12) {
		Binding binding = soap12
			? (Binding) new CustomBinding(new TextMessageEncodingBindingElement(MessageVersion.Soap12, System.Text.Encoding.UTF8), new HttpTransportBindingElement())
			: new BasicHttpBinding();
		return new ChannelFactory<IPosting>(binding, new EndpointAddress(endpoint)).CreateChannel();
	}

	static string Call(string endpoint, string key, bool soap12) {
		try {
			var rows = Channel(endpoint, soap12).GetCurrency("en-GB", key);
			return "OK " + rows.Length + " rows, first " + rows[0].Value;
		} catch (Exception e) {
			return Describe(e);
		}
	}

	static string Describe(Exception e) {
		var detailed = e as FaultException<ExceptionDetail>;
		if (detailed != null) {
			return "FaultException<ExceptionDetail> code=" + detailed.Code.Name + ": " + e.Message + " (detail.Type=" + detailed.Detail.Type + ")";
		}
		var fault = e as FaultException;
		if (fault != null) {
			return "FaultException code=" + fault.Code.Name + " sub=" + (fault.Code.SubCode == null ? "-" : fault.Code.SubCode.Name) + ": " + e.Message;
		}
		return "OTHER " + e.GetType().FullName + ": " + e.Message;
	}
}
